"""Display-name rules: 3–20 letters, digits, `_` or `-`, from one alphabet where letters look alike.

Names are NFKC-normalised before these run (accounts.names.canonical). Unique ignoring case and
look-alikes: `accounts.models.display_name_unavailable` and two database constraints.
"""

import re
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

from .names import mixes_lookalike_scripts

DISPLAY_NAME_MIN = 3
DISPLAY_NAME_MAX = 20
# \w is Unicode-aware: letters with accents (João) and digits, plus the underscore.
_ALLOWED = re.compile(r"^[\w-]+\Z")


@deconstructible
class DisplayNameLength:
    def __call__(self, value: str) -> None:
        if len(value) < DISPLAY_NAME_MIN:
            raise ValidationError(
                _("The display name must have at least %(min)d characters."),
                code="display_name_too_short",
                params={"min": DISPLAY_NAME_MIN},
            )
        if len(value) > DISPLAY_NAME_MAX:
            raise ValidationError(
                _("The display name may have at most %(max)d characters."),
                code="display_name_too_long",
                params={"max": DISPLAY_NAME_MAX},
            )

    def __eq__(self, other):
        return isinstance(other, DisplayNameLength)


@deconstructible
class DisplayNameCharacters:
    def __call__(self, value: str) -> None:
        if not _ALLOWED.match(value):
            raise ValidationError(
                _("Use only letters, digits, “_” and “-” in the display name (no spaces)."),
                code="display_name_characters",
            )

    def __eq__(self, other):
        return isinstance(other, DisplayNameCharacters)


@deconstructible
class DisplayNameScripts:
    """ "Аdmin" with a Cyrillic А: letters of several scripts where some pass for another's."""

    def __call__(self, value: str) -> None:
        if mixes_lookalike_scripts(value):
            raise ValidationError(
                _("The display name mixes alphabets whose letters look alike (a Cyrillic “а” among Latin ones)."),
                code="display_name_mixed_scripts",
            )

    def __eq__(self, other):
        return isinstance(other, DisplayNameScripts)


display_name_validators: list[Callable[[Any], None]] = [
    DisplayNameLength(),
    DisplayNameCharacters(),
    DisplayNameScripts(),
]
