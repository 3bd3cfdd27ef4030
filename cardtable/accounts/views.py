"""Register, log in, log out, change the password, delete the account: Django's auth views, rate-limited.

A guest who registers claims their guest player: the same row, so their games
follow them. A guest who logs in to an account with no games yet claims it too;
an account that already has games keeps them, and the guest's stay the guest's
(merging two histories is not offered). Every attempt counts against the
limits (``settings.RATE_LIMITS``: ``register``, ``login``, ``password``); a
login that succeeds takes its count back. A refused attempt shows an empty form,
checked by nothing: no password is hashed for it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.views.decorators.debug import sensitive_post_parameters

from cardtable.accounts.forms import ChangePasswordForm, DeleteAccountForm, RegisterForm
from cardtable.tables.errors import TableError
from cardtable.tables.models import Player
from cardtable.tables.players import accounts, ratelimit
from cardtable.tables.players.identity import SESSION_KEY, player_for

LOGIN = "accounts:login"
TOO_MANY = 429


def allowance(
    kind: str, request: HttpRequest, player: Player | None = None, name: str = ""
) -> ratelimit.Allowance:
    """The limits of ``kind`` for this address and player, and for the account ``name`` tried."""
    found = ratelimit.allowance(kind, player, ratelimit.request_address(request))
    per_name = settings.RATE_LIMITS.get(kind, {}).get("name")
    key = account_key(name)
    if settings.RATE_LIMITS_ON and per_name and key:
        found.limits.append(ratelimit.Limit(f"{kind}:name:{key[:150]}", *per_name))
    return found


def account_key(name: str) -> str:
    """The account a login names, as the per-name limit counts it: every spelling of one name alike.

    Django's login form strips the name and normalises it (NFKC, ``UsernameField``)
    before ``authenticate`` looks it up, so a space or tab around ``Ann``, an
    ideographic space after it and its full-width letters all log in to ``Ann``:
    they must spend one allowance, not one each (docs/security.md, "The login
    limit was bypassed by spelling"). Case is folded too: no case of a name gets its own.
    """
    return unicodedata.normalize("NFKC", name.strip()).casefold()


def guest_of(request: HttpRequest) -> Player | None:
    """The session's guest player (none when logged in)."""
    if request.user.is_authenticated:
        return None
    return player_for(request.session, None)


def page_of(player: Player) -> str:
    """The player's page."""
    return reverse("accounts:player", args=[player.pk])


@sensitive_post_parameters("password1", "password2")
def register(request: HttpRequest) -> HttpResponse:
    """GET the form; POST a name and a password: a new account, holding the session's guest if any."""
    if request.user.is_authenticated:
        return redirect(page_of(player_for(request.session, request.user)))
    guest = guest_of(request)
    form = RegisterForm(request.POST or None, guest=guest)
    if request.method == "POST":
        try:
            allowance("register", request).take("registrations")
        except TableError as error:
            form = RegisterForm(initial={"name": request.POST.get("name", "")}, guest=guest)
            context = {"form": form, "guest": guest, "refused": error.message}
            return render(request, "accounts/register.html", context, status=TOO_MANY)
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = _create_user(form)
                    player = accounts.claim(guest, user, form.cleaned_data["name"])
            except (IntegrityError, accounts.NameTaken) as error:  # taken meanwhile
                form.add_error(
                    "name", str(error) if isinstance(error, accounts.NameTaken) else "that name is taken"
                )
            else:
                login(request, user)
                if guest is not None and accounts.has_games(player):
                    messages.success(request, f"Your games as {guest.name} are now your account's.")
                return redirect(page_of(player))
    return render(request, "accounts/register.html", {"form": form, "guest": guest})


def _create_user(form: RegisterForm) -> Any:
    """The new user, named as its player, its password set the way Django's forms set it."""
    return form.set_password_and_save(get_user_model()(username=form.cleaned_data["name"]))


class LoginView(auth_views.LoginView):
    """Django's login, rate-limited per address and per name tried; a guest with no games is claimed."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        """Count the attempt first; a refused one shows the form again with status 429."""
        self.attempt = allowance("login", request, name=str(request.POST.get("username", "")))
        try:
            self.attempt.take("login attempts")
        except TableError as error:
            return self.refuse(error)
        return super().post(request, *args, **kwargs)

    def refuse(self, error: TableError) -> HttpResponse:
        """The form again, empty and checked by nothing (no password is tried), with status 429."""
        form = self.get_form_class()(
            self.request, initial={"username": self.request.POST.get("username", "")}
        )
        return self.render_to_response(
            self.get_context_data(form=form, refused=error.message), status=TOO_MANY
        )

    def form_valid(self, form: Any) -> HttpResponse:
        """Log in; the attempt is refunded; the session's guest joins an account with no games.

        The guest is claimed first: the redirect then names the player the account plays as.
        """
        self.attempt.refund()
        guest = guest_of(self.request)
        if guest is not None:
            if accounts.replace_empty(guest, form.get_user()) is not None:
                messages.success(self.request, f"Your games as {guest.name} are now your account's.")
            else:
                messages.info(
                    self.request,
                    f"Your account already has games; those you played as {guest.name} stay with that guest.",
                )
        return super().form_valid(form)

    def get_default_redirect_url(self) -> str:
        """The player's own page."""
        return page_of(player_for(self.request.session, self.request.user))


class LogoutView(auth_views.LogoutView):
    """Django's logout (POST only), back to the lobby."""

    next_page = "/"


class WithPlayer:
    """Adds the logged-in user's player (made on first sight, as everywhere) to a page's context."""

    request: HttpRequest

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        """The view's context, and ``player``."""
        context = super().get_context_data(**kwargs)  # type: ignore[misc]
        context["player"] = player_for(self.request.session, self.request.user)
        return context


class PasswordDoneView(WithPlayer, auth_views.PasswordChangeDoneView):
    """Django's "password changed" page, with a way back to the player's page."""

    template_name = "accounts/password_done.html"


class PasswordChangeView(WithPlayer, auth_views.PasswordChangeView):
    """Django's password change (old password, new one twice, the validators), rate-limited per player."""

    template_name = "accounts/password_change.html"
    form_class = ChangePasswordForm
    success_url = reverse_lazy("accounts:password_done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        """Count the attempt first; a refused one shows the form again with status 429."""
        try:
            allowance("password", request, player_for(request.session, request.user)).take(
                "password attempts"
            )
        except TableError as error:
            form = self.get_form_class()(user=request.user)
            context = self.get_context_data(form=form, refused=error.message)
            return self.render_to_response(context, status=TOO_MANY)
        return super().post(request, *args, **kwargs)


password_change = login_required(PasswordChangeView.as_view(), login_url=LOGIN)
password_done = login_required(PasswordDoneView.as_view(), login_url=LOGIN)


@login_required(login_url=LOGIN)
@sensitive_post_parameters("password")
def delete_account(request: HttpRequest) -> HttpResponse:
    """GET the form; POST the password: the account goes, its games stay under a former player's name.

    Refused while the player holds a seat at an open table (leave it first).
    """
    player = player_for(request.session, request.user)
    form = DeleteAccountForm(request.user, request.POST or None)
    seated = accounts.open_seats(player)
    context = {"form": form, "player": player, "seated": seated}
    if request.method != "POST":
        return render(request, "accounts/delete.html", context)
    try:
        allowance("password", request, player).take("password attempts")
    except TableError as error:
        context.update(form=DeleteAccountForm(request.user), refused=error.message)
        return render(request, "accounts/delete.html", context, status=TOO_MANY)
    if seated:
        form.add_error(None, "you still hold a seat at an open table: leave it first")
    elif form.is_valid():
        accounts.delete_account(request.user)
        logout(request)
        request.session.pop(SESSION_KEY, None)
        return HttpResponseRedirect("/?deleted=1")
    return render(request, "accounts/delete.html", context, status=400)
