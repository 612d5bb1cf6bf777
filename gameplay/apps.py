from django.apps import AppConfig


class GameplayConfig(AppConfig):
    name = "gameplay"

    def ready(self) -> None:
        """Register the gameplay tasks, which `gameplay.queue` runs by name in every process."""
        from gameplay import tasks  # noqa: F401
