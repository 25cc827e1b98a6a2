"""Uploaded catalogue images: checked by their content, not their name.

Served from our own origin, an HTML or SVG file named `.png` could carry script, and a 50 MB upload
would be served to every shop visitor. Pillow reads the header and verifies the file's structure.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from PIL import Image, UnidentifiedImageError

MAX_IMAGE_BYTES = 2 * 1024 * 1024
MAX_IMAGE_SIDE = 2048
# Pillow's format name -> the file extensions that may carry it.
FORMATS = {"PNG": {"png"}, "JPEG": {"jpg", "jpeg"}, "WEBP": {"webp"}}


def validate_catalogue_image(upload) -> None:
    """Raise ValidationError unless `upload` is a PNG, JPEG or WebP image of sane size, named for what it is."""
    if upload.size > MAX_IMAGE_BYTES:
        raise ValidationError(
            _("The image may be at most %(max)d MB."), code="image_too_large", params={"max": MAX_IMAGE_BYTES >> 20}
        )
    upload.seek(0)
    try:
        with Image.open(upload) as image:
            kind, (width, height) = image.format, image.size
            image.verify()  # the structure and checksums, without decoding every pixel
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise ValidationError(_("The file is not a PNG, JPEG or WebP image."), code="image_unreadable") from exc
    finally:
        upload.seek(0)
    if kind not in FORMATS:
        raise ValidationError(_("The file is not a PNG, JPEG or WebP image."), code="image_unreadable")
    extension = upload.name.rsplit(".", 1)[-1].lower() if "." in upload.name else ""
    if extension not in FORMATS[kind]:
        raise ValidationError(
            _("The file is a %(kind)s image: give it a matching name (.%(extension)s)."),
            code="image_misnamed",
            params={"kind": kind, "extension": sorted(FORMATS[kind])[0]},
        )
    if width > MAX_IMAGE_SIDE or height > MAX_IMAGE_SIDE:
        raise ValidationError(
            _("The image may be at most %(max)d × %(max)d pixels."),
            code="image_too_big",
            params={"max": MAX_IMAGE_SIDE},
        )
