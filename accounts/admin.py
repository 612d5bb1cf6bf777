from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from rest_framework.authtoken.models import TokenProxy

from accounts.models import User

admin.site.register(User, UserAdmin)
# API tokens are their owner's secret: staff see none (an owner replaces theirs on the profile).
admin.site.unregister(TokenProxy)
