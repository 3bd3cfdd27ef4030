"""Staff add a RECYCLE game: paste or upload a description; it is checked, stored, listed,
and its design statistics are queued for a background job (``designjobs``)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cardtable.dashboard import designjobs, recycle_games
from cardtable.dashboard.models import DesignStats, StoredGame
from games.engine import GameError
from games.recycle import MAX_FILE_BYTES, RecycleError
from games.recycle.listing import extract_listing


def _description(request: HttpRequest) -> str:
    """Return the uploaded file's text if one came, else the pasted text."""
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("text", "")
    if upload.size > MAX_FILE_BYTES:
        raise RecycleError(f"the file is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = upload.read().decode("utf-8")
    except UnicodeDecodeError:
        raise RecycleError("the file is not UTF-8 text") from None
    # A CardStock blog post: its code blocks, in order, make the program.
    return extract_listing(text) if "{% highlight racket %}" in text else text


@staff_member_required
def recycle_games_page(request: HttpRequest) -> HttpResponse:
    """GET: the stored games and the form; POST: add a game (400 with the error when it is not one)."""
    context = {
        **admin.site.each_context(request),
        "title": "RECYCLE games",
        "check_games": recycle_games.CHECK_GAMES,
    }
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")
        text = ""
        try:
            text = _description(request)
            added = recycle_games.add(name, text, request.user)
            # Its design statistics run in a background job (designjobs), never in this request.
            designjobs.submit(added.game_id, added.players)
            context["added"] = added
            status = 201
        except RecycleError as error:
            context["error"] = recycle_games.error_context(text, error)
            status = 400
        except GameError as error:
            context["error"] = {"message": str(error)}
            status = 400
        context["form"] = {"name": name, "text": text if status == 400 else ""}
    stored = list(StoredGame.objects.all())
    design = {
        row.game: row
        for row in DesignStats.objects.filter(game__in=[g.game_id for g in stored], variant="{}")
    }
    context["stored"] = [(game, design.get(game.game_id)) for game in stored]
    return render(request, "dashboard/recycle_games.html", context, status=status)
