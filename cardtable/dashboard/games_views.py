"""Staff add a RECYCLE game: paste or upload a description, with a title and description
(both optional). The request compiles it (a bad one is refused with its line and
column) and stores it queued for its playability check, which a background job runs
(``checkjobs``): the answer comes at once, and the page follows the check
(``check_status``) until the game is in the lobby or refused with the reason. Uploads
are limited per staff member (``RATE_LIMITS["upload"]``). Staff may later edit a
stored game's title and description."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from cardtable.dashboard import checkjobs, recycle_games
from cardtable.dashboard.models import DesignStats, StoredGame
from cardtable.tables.errors import TableError
from cardtable.tables.players import ratelimit
from games.engine import GameError
from games.recycle import MAX_FILE_BYTES, RecycleError
from games.recycle.reading.forms import leading_comments
from games.recycle.reading.listing import extract_listing, post_title


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


def upload_allowance(request: HttpRequest) -> ratelimit.Allowance:
    """The uploads this staff member may still make (``RATE_LIMITS["upload"]["staff"]``)."""
    per_staff = settings.RATE_LIMITS.get("upload", {}).get("staff")
    if not settings.RATE_LIMITS_ON or not per_staff:
        return ratelimit.Allowance([])
    user = request.user
    # The join time is in the key, as the players' limits have their creation time: a reused id starts afresh.
    key = f"upload:staff:{user.pk}:{user.date_joined.timestamp():.6f}"
    return ratelimit.Allowance([ratelimit.Limit(key, *per_staff)])


def too_many_uploads() -> str:
    """The refusal staff read past their allowance."""
    count, seconds = settings.RATE_LIMITS["upload"]["staff"]
    return (
        f"You have added {count} games in the last {seconds // 60:g} minutes, the most one staff member "
        "may: wait a little and try again (a game refused for its text does not count)."
    )


@staff_member_required
def recycle_games_page(request: HttpRequest) -> HttpResponse:
    """GET: the stored games and the form; POST: add a game (202: stored, its check queued; 400 with
    the error when it is not a game; 429 past the staff member's allowance)."""
    context = _context(request)
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")
        about = request.POST.get("description", "")
        text = request.POST.get("text", "")  # kept in the form if the upload is refused before it is read
        allowance = upload_allowance(request)
        try:
            allowance.take("uploads")
            text, filename = _description(request)
            if filename.startswith("post:"):  # a blog post's title names the game it codes
                name, filename = name.strip() or filename[5:], filename[5:]
            # Stored and queued; the check plays in a job's child process, never in this request.
            context["added"] = checkjobs.submit(name, text, request.user, about, filename)
            status = 202
        except TableError:
            context["error"] = {"message": too_many_uploads()}
            status = 429
        except RecycleError as error:
            allowance.refund()
            context["error"] = recycle_games.error_context(text, error)
            status = 400
        except GameError as error:
            allowance.refund()
            context["error"] = {"message": str(error)}
            status = 400
        except BaseException:
            allowance.refund()
            raise
        kept = {"name": name, "description": about, "text": text}  # to fix and send again
        context["form"] = kept if status in (400, 429) else {}
    else:
        checkjobs.resume()  # a check left running by a server that has died runs again
    return _page(request, context, status)


@staff_member_required
@require_GET
def check_status(request: HttpRequest, game_id: str) -> JsonResponse:
    """A stored game's check, as the staff page follows it: status, message, figures and their sentence."""
    row = get_object_or_404(StoredGame, game_id=game_id)
    return JsonResponse(
        {
            "game": row.game_id,
            "status": row.status,
            "message": row.message,
            "checked": row.checked,
            "text": check_sentence(row),
        }
    )


def check_sentence(row: StoredGame) -> str:
    """What the staff page says of a stored game's check."""
    if row.status == StoredGame.DONE:
        checked = row.checked
        return (
            f"Checked: {checked.get('games')} random games ended, {checked.get('moves_mean')} moves on "
            f"average, {checked.get('moves_max')} at most. It is in the lobby now; its design "
            "statistics are computed by a background job."
        )
    if row.status == StoredGame.FAILED:
        return f"Refused: {row.message}. It is offered at no table; fix it and upload it again."
    return (
        f"Being checked: up to {recycle_games.CHECK_GAMES} games between random players must end "
        "(a minute or two at most). It joins the lobby when they have; this page shows the result."
    )


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
        (
            game,
            design.get(game.game_id),
            game.description or leading_comments(game.text),
            check_sentence(game),
        )
        for game in stored
    ]
    if "added" in context:
        context["added_sentence"] = check_sentence(context["added"])
    return render(request, "dashboard/recycle_games.html", context, status=status)
