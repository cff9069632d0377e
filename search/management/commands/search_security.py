import os

from django.core.management.base import BaseCommand, CommandError
from elasticsearch import ApiError, TransportError

from search import conf, security
from search.nodes import credentials, safe_url
from search.ownership import prefix_problem


class Command(BaseCommand):
    help = (
        "Create or update, with the superuser's credentials, the Elasticsearch role that reaches only this site's "
        "indices, aliases and synonyms set, and the user ELASTICSEARCH_URL names with that role and the URL's "
        "password (idempotent). The superuser's password comes from ELASTIC_PASSWORD (user ELASTIC_USER, default "
        "elastic); nothing secret is printed."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--prefix",
            action="append",
            dest="prefixes",
            help="An index prefix the user may use (repeatable); default SEARCH_INDEX_PREFIX.",
        )
        parser.add_argument(
            "--take-over",
            action="store_true",
            help="Write the role even when another user holds it (this site's user was renamed); never to share a prefix.",
        )

    def handle(self, *args, prefixes, take_over, **options):
        admin_password = os.environ.get("ELASTIC_PASSWORD")
        if not admin_password:
            raise CommandError("set ELASTIC_PASSWORD to the superuser's password (it is used for this command only)")
        admin_user = os.environ.get("ELASTIC_USER", "elastic")
        url = conf.get().elasticsearch.url
        site = credentials(url)
        if site is None or not site[1]:
            raise CommandError(f"ELASTICSEARCH_URL ({safe_url(url)}) names no user and password: give the site's own, http://user:password@host:9200")
        if site[0] == admin_user:
            raise CommandError(f"ELASTICSEARCH_URL names the superuser {admin_user!r}: the site must connect as a user of its own")
        prefixes = prefixes or [conf.get().index.prefix]
        bad = [problem for problem in map(prefix_problem, prefixes) if problem]
        if bad:
            raise CommandError(bad[0])
        try:
            admin = security.admin_client(admin_user, admin_password)
            taken = [] if take_over else security.takeover_problems(admin, prefixes=prefixes, user=site[0])
            if taken:
                raise CommandError(
                    f"{'; '.join(taken)}: nothing was changed. Choose an index prefix of this site's own (SEARCH['INDEX_PREFIX']); "
                    "`--take-over` only if that user was this site's."
                )
            roles = security.grant(admin, prefixes=prefixes, user=site[0], password=site[1])
        except (ApiError, TransportError) as exc:
            raise CommandError(f"Elasticsearch at {safe_url(url)} refused: {exc} (is security on, and ELASTIC_PASSWORD the superuser's?)") from exc
        for prefix, role in zip(prefixes, roles, strict=True):
            self.stdout.write(f"Role {role}: {', '.join(security.index_names(prefix))}; cluster: {', '.join(security.CLUSTER_PRIVILEGES)}")
        self.stdout.write(self.style.SUCCESS(f"User {site[0]} has the roles {', '.join(roles)} and the password ELASTICSEARCH_URL gives."))
