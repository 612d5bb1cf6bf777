from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class GameplayConfig(AppConfig):
    verbose_name = pgettext_lazy("admin section", "Tables")  # the admin index's heading
    name = "gameplay"

    def ready(self) -> None:
        """Register the gameplay tasks, which `gameplay.queue` runs by name in every process."""
        from django.utils.translation import get_language

        from gameplay import tasks  # noqa: F401
        from games import catalogue

        # Games' names in the page's language (the engines' NAMES: 最中限 in Japanese).
        catalogue.use_language(get_language)
