"""User accounts. A custom user model from the first migration, so it can grow later."""

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A person who logs in: organizer, player or both."""
