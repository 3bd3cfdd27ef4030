"""Staff add a RECYCLE game: paste or upload a description, with a title and description
(both optional); it is checked, stored, listed, and its design statistics are queued
for a background job (``designjobs``), all in one transaction. Staff may later edit a
stored game's title and description."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cardtable.dashboard import designjobs, recycle_games
from cardtable.dashboard.models import DesignStats, StoredGame
from games.engine import GameError
from games.recycle import MAX_FILE_BYTES, RecycleError
from games.recycle.forms import leading_comments
from games.recycle.listing import extract_listing, post_title


def _description(request: HttpRequest) -> tuple[str, str]:
    """Return the uploaded file's program if one came, else the pasted text; and the
    file's name ('' for pasted text), or a blog post's title."""
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("text", ""), ""
    if upload.size > MAX_FILE_BYTES:
        raise RecycleError(f"the file is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = upload.read().decode("utf-8")
    except UnicodeDecodeError:
        raise RecycleError("the file is not UTF-8 text") from None
    if "{% highlight racket %}" not in text:
        return text, upload.name
    # A CardStock blog post: its code blocks, in order, make the program.
    try:
        return extract_listing(text), "post:" + (post_title(text) or upload.name)
    except ValueError as error:
        raise RecycleError(str(error)) from None


@staff_member_required
def recycle_games_page(request: HttpRequest) -> HttpResponse:
    """GET: the stored games and the form; POST: add a game (400 with the error when it is not one)."""
    context = _context(request)
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")
        about = request.POST.get("description", "")
        text = ""
        try:
            text, filename = _description(request)
            if filename.startswith("post:"):  # a blog post's title names the game it codes
                name, filename = name.strip() or filename[5:], filename[5:]
            with transaction.atomic():  # the game and its queued statistics, or nothing
                added = recycle_games.add(name, text, request.user, about, filename)
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
        kept = {"name": name, "description": about, "text": text}  # to fix and send again
        context["form"] = kept if status == 400 else {}
    return _page(request, context, status)


@staff_member_required
@require_POST
def edit_recycle_game(request: HttpRequest, game_id: str) -> HttpResponse:
    """Change a stored game's title and description; back to the list (400 with the error)."""
    try:
        recycle_games.edit(game_id, request.POST.get("name", ""), request.POST.get("description", ""))
    except GameError as error:
        context = _context(request)
        context["edit_error"] = {"game": game_id, "message": str(error)}
        return _page(request, context, 400)
    return HttpResponseRedirect(
        reverse("dashboard:recycle_games") + f"?edited={game_id}#stored-h", status=303
    )


def _context(request: HttpRequest) -> dict:
    return {
        **admin.site.each_context(request),
        "title": "RECYCLE games",
        "check_games": recycle_games.CHECK_GAMES,
        "edited": request.GET.get("edited", ""),
    }


def _page(request: HttpRequest, context: dict, status: int) -> HttpResponse:
    stored = list(StoredGame.objects.all())
    design = {
        row.game: row
        for row in DesignStats.objects.filter(game__in=[g.game_id for g in stored], variant="{}")
    }
    # The edit form shows the description players read: the staff's, else the file's comments.
    context["stored"] = [
        (game, design.get(game.game_id), game.description or leading_comments(game.text)) for game in stored
    ]
    return render(request, "dashboard/recycle_games.html", context, status=status)
