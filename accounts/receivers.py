"""Every user has a profile from the moment it exists."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import Profile, User


@receiver(post_save, sender=User, dispatch_uid="accounts_create_profile")
def create_profile(sender, instance: User, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        Profile.objects.get_or_create(user=instance)
