"""Display-name rules: 3–20 letters, digits, `_` or `-`.

Unique ignoring case: checked by allauth and a database constraint.
"""

import re

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

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


display_name_validators = [DisplayNameLength(), DisplayNameCharacters()]
