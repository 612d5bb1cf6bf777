from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class AccountsConfig(AppConfig):
    verbose_name = pgettext_lazy("admin section", "Users")  # the admin index's heading
    name = "accounts"
