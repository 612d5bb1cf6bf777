"""Placeholder, replaced below."""

from django.http import JsonResponse


def healthz(request):
    return JsonResponse({})
