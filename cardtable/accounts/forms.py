"""The accounts' forms: Django's auth forms, with the site's rules for names.

An account's name is its username and the name its player shows at tables: it
follows the guests' rules (``names.clean_name``) and may not look like any
other player's or account's name (``accounts.check_account_name``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordMixin

from cardtable.tables.models import Player
from cardtable.tables.players import accounts, names


def plain_password_help(form: forms.Form, field: str) -> None:
    """Give ``field`` the validators' help as plain text (Django's is HTML; no page marks text safe)."""
    form.fields[field].help_text = " ".join(password_validation.password_validators_help_texts())


def clean_account_name(name: object, guest: Player | None) -> str:
    """Return the name cleaned, or raise ``ValidationError`` (bad text, or held by another)."""
    try:
        name = names.clean_name(name)
        accounts.check_account_name(name, guest)
    except (names.BadText, accounts.NameTaken) as error:
        raise forms.ValidationError(str(error)) from None
    if get_user_model().objects.filter(username__iexact=name).exists():
        raise forms.ValidationError("that name belongs to a registered player")
    return name


class RegisterForm(SetPasswordMixin, forms.Form):
    """A name and a password twice; the password passes ``AUTH_PASSWORD_VALIDATORS``."""

    name = forms.CharField(
        label="Your name",
        max_length=names.MAX_NAME,
        strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "username", "maxlength": names.MAX_NAME}),
        help_text="The name the tables show, and the one you log in with.",
    )
    password1, password2 = SetPasswordMixin.create_password_fields()

    def __init__(self, *args: Any, guest: Player | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.guest = guest
        plain_password_help(self, "password1")
        if guest is not None:
            self.fields["name"].initial = guest.name

    def clean_name(self) -> str:
        """The name by the site's rules, held by nobody else (the session's own guest aside)."""
        return clean_account_name(self.cleaned_data.get("name"), self.guest)

    def clean(self) -> dict[str, Any]:
        """Both passwords alike, and the password accepted by every validator for this name."""
        self.validate_passwords()
        cleaned = super().clean()
        user = get_user_model()(username=cleaned.get("name") or "")
        self.validate_password_for_user(user)
        return cleaned


class ChangePasswordForm(PasswordChangeForm):
    """Django's password change (the old password, the new one twice, the validators)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plain_password_help(self, "new_password1")


class DeleteAccountForm(forms.Form):
    """The password once more, to delete the account."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        """The account's own password, or a clear error."""
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("that is not your password")
        return password
