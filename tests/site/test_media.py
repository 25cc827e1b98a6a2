"""Uploaded images are served under /media/ (no nginx needed), and nothing outside MEDIA_ROOT is."""

import pytest


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "items").mkdir()
    (tmp_path / "items" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return tmp_path


def test_uploaded_file_is_served(client, media_root):
    response = client.get("/media/items/a.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"


def test_path_outside_media_root_is_refused(client, media_root):
    # Django answers 400 (suspicious path) or 404; never the file.
    assert client.get("/media/../settings.py").status_code in (400, 404)
    assert client.get("/media/%2e%2e/%2e%2e/etc/passwd").status_code in (400, 404)
