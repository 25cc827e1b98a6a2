"""Making two people friends the way they would: one asks by name, the other accepts."""

from accounts import friends
from accounts.models import FriendRequest


def befriend(a, b) -> None:
    friends.send_request(a, b.username)
    friends.accept(b, FriendRequest.objects.get(sender=a, recipient=b).pk)
