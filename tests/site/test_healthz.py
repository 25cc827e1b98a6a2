"""GET /healthz: 200 with both parts answering, 503 when either does not."""

import pytest
from channels.layers import channel_layers
from django.db import connection
from django.db.utils import OperationalError


@pytest.fixture
def fresh_layers():
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.mark.django_db(transaction=True)
def test_healthz_is_200_when_database_and_channel_layer_answer(client, fresh_layers):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db(transaction=True)
def test_healthz_is_503_when_the_channel_layer_is_unreachable(client, settings, fresh_layers):
    # A real Redis layer pointed at a port where nothing listens.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["channel_layer"] == "unavailable"
    assert response.json()["database"] == "ok"


@pytest.mark.django_db(transaction=True)
def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch, fresh_layers):
    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    # On the connection class: the check runs in a thread of its own, with its own connection.
    monkeypatch.setattr(type(connection._connections[connection._alias]), "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unavailable", "channel_layer": "ok"}
