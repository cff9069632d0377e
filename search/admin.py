"""The admin of search: the blog's synonym rules, and the dead letters (what Elasticsearch kept
refusing, why, and a retry action)."""

from django.contrib import admin, messages
from django.db import transaction

from search import synonyms
from search.models import DeadChange, SynonymRule
from search.sync import outbox


@admin.register(DeadChange)
class DeadChangeAdmin(admin.ModelAdmin):
    list_display = ["kind", "object_id", "attempts", "died", "last_error"]
    list_filter = ["kind"]
    readonly_fields = ["kind", "object_id", "tombstone_version", "created", "died", "attempts", "last_error"]
    actions = ["retry"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Retry selected entries (after fixing the cause)")
    def retry(self, request, queryset):
        moved = outbox.retry_dead(list(queryset.values_list("id", flat=True)))
        self.message_user(request, f"{moved} entr(ies) moved back to the outbox.", messages.SUCCESS)


@admin.register(SynonymRule)
class SynonymRuleAdmin(admin.ModelAdmin):
    """A rule applies to the next search on every node (search/synonyms.py), without a reindex."""

    list_display = ["rule", "note", "updated"]
    search_fields = ["rule", "note"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._report_copy(request)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        self._report_copy(request)

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        self._report_copy(request)

    @staticmethod
    def _report_copy(request):
        """After the rules are copied to Elasticsearch (the signal's on-commit hook, which runs
        first): say so when that failed, so the owner knows why searches do not follow yet."""
        synonyms.forget_last_push()  # a change that sends no signal copies nothing: no old outcome shown

        def report():
            if synonyms.last_push_failed():
                messages.warning(
                    request,
                    "Saved. Elasticsearch could not take the synonym rules just now: searches apply them once "
                    "the scheduler's next search_sync round copies them (nothing is lost).",
                )

        transaction.on_commit(report)
