"""The search app installs like a library: the wheel pyproject.toml builds holds the app and its
compiled extension and nothing of this site, and it installs and imports in a fresh virtualenv
(without this checkout's packages: no --system-site-packages, dependencies from PyPI).

Slow (the wheel's release build, about 30 s when cargo's target/ is warm; the venv, another 30 s
from pip's cache) and needs cargo and PyPI; marked `services` so that `-m "not services"` stays
the quick offline run.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.services]

CARGO_BIN = Path.home() / ".cargo" / "bin"


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def build_env() -> dict:
    return {**os.environ, "PATH": f"{CARGO_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    if not shutil.which("cargo", path=build_env()["PATH"]):
        pytest.skip("cargo not found: the wheel compiles native/lexicon (install Rust: https://rustup.rs)")
    out = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)], env=build_env())
    (found,) = out.glob("django_typo_search-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh virtualenv with the wheel and its dependencies, nothing else."""
    home = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", str(home)])
    python = home / "bin" / "python"
    # The client's major follows the server's (docs/adopting.md, 2): an 8.19 server refuses a 9.x client.
    from tests.helpers import admin

    major = int(admin().info()["version"]["number"].split(".")[0])
    run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel), f"elasticsearch<{major + 1}"])
    return python


def test_the_wheel_holds_the_app_and_its_extension_only(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for expected in (
        "search/__init__.py",
        "search/apps.py",
        "search/urls.py",
        "search/templates/search/results.html",
        "search/templates/search/box.html",
        "search/templates/search/unavailable.html",
        "search/static/search/instant-search.js",
        "search/migrations/0001_initial.py",
        "search/migrations/0005_versions_and_outbox_triggers.py",
        "search/management/commands/reindex.py",
        "search/data/real_words_en.txt.gz",
        "search/data/real_words_de.txt.gz",
        "search/data/real_words_fr.txt.gz",
        "search/data/software_names_en.txt.gz",
        "search/data/software_names_de.txt.gz",
        "search/data/software_names_fr.txt.gz",
        "search/locale/de/LC_MESSAGES/django.mo",
        "search/locale/fr/LC_MESSAGES/django.mo",
    ):
        assert expected in names, expected
    assert [n for n in names if n.startswith("search/_lexicon.") and n.endswith(".so")], "the compiled extension is missing"
    outside = {n.split("/")[0] for n in names} - {"search", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    assert not outside, f"the wheel holds more than the app: {sorted(outside)}"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    requires = {
        line.split(":", 1)[1].strip().split(">")[0].split("<")[0].split("=")[0].lower() for line in metadata.splitlines() if line.startswith("Requires-Dist:")
    }
    assert {"django", "elasticsearch", "orjson", "psycopg2-binary", "tqdm", "django-pgtrigger"} <= requires, requires


def clean_env(**extra) -> dict:
    """The environment without this site's settings module (pytest-django sets it)."""
    return {**{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH")}, **extra}


def test_the_installed_app_and_its_extension_import_in_a_fresh_venv(venv, tmp_path):
    """Imported from outside the checkout, so the installed copy is the one tested."""
    code = textwrap.dedent(
        """
        import search
        from search._lexicon import Lexicon
        assert "site-packages" in search.__file__, search.__file__
        words = Lexicon(Lexicon.build([("firefox", (1, 2, 0)), ("fire", (0, 1, 0))]))
        assert len(words) == 2 and "firefox" in words
        from search import realwords  # its word list is package data
        assert realwords.is_real("unity", 3.0) and not realwords.is_real("pyhton", 3.0)
        print("ok")
        """
    )
    assert run([str(venv), "-c", code], cwd=tmp_path, env=clean_env()).stdout.strip() == "ok"


def test_the_dictionary_module_imports_with_default_settings(venv, tmp_path):
    """search.vocabulary (which reads the settings object at import, as documents.py does, and
    the dictionary's model) in a Django with only the app installed: nothing of this site."""
    code = (
        "import django; from django.conf import settings; settings.configure(INSTALLED_APPS=['pgtrigger', 'search']); django.setup(); "
        "import search.vocabulary as v; assert v.Lexicon is not None; print('ok')"
    )
    result = subprocess.run([str(venv), "-c", code], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


MINIMAL_SETTINGS = """
import os
from urllib.parse import urlsplit

url = urlsplit(os.environ.get("DATABASE_URL", "postgres://blogsearch@127.0.0.1:54329/blogsearch"))
SECRET_KEY = "minimal-site-test-only"
DEBUG = True
ALLOWED_HOSTS = ["testserver"]
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "django.contrib.staticfiles", "pgtrigger", "search"]
ROOT_URLCONF = "minimal_urls"
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": url.path.lstrip("/"), "USER": url.username or "",
             "PASSWORD": url.password or "", "HOST": url.hostname or "", "PORT": str(url.port or "")}}
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": True}]
STATIC_URL = "/static/"
USE_TZ = True
SEARCH = {"INDEX_PREFIX": "minimal"}  # every site names its own indices (check says so otherwise)
ELASTICSEARCH = {"URL": "http://minimal:not-used@127.0.0.1:9200"}  # the site's own user
"""

MINIMAL_URLS = """
from django.urls import include, path

urlpatterns = [path("", include("search.urls"))]
"""

CHECK = """
import django
django.setup()
from django.core.management import call_command
call_command("check")
from django.contrib.staticfiles import finders
from django.template.loader import get_template
assert finders.find("search/instant-search.js"), "the app's static file"
get_template("search/box.html")
print("checked")
"""


def test_a_minimal_site_with_only_the_app_passes_check(venv, tmp_path):
    """INSTALLED_APPS with search, one include() of its URLs, settings left at their defaults."""
    (tmp_path / "minimal_settings.py").write_text(MINIMAL_SETTINGS)
    (tmp_path / "minimal_urls.py").write_text(MINIMAL_URLS)
    env = clean_env(DJANGO_SETTINGS_MODULE="minimal_settings", PYTHONPATH=str(tmp_path))
    result = subprocess.run([str(venv), "-c", CHECK], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("checked")


def requirement(name: str) -> str:
    """The line of requirements-dev.txt that pins `name` (pytest>=8.3,<10): the fresh venv's test
    tools in the checkout's ranges."""
    return next(line for line in (ROOT / "requirements-dev.txt").read_text().splitlines() if re.match(rf"{name}\s*[<>=]", line))


NOTEBOOK = ROOT / "examples" / "notebook"


def test_the_notebook_site_passes_its_tests_on_the_installed_wheel(venv, tmp_path):
    """Issue 50's target: the notebook example passes its own suite on a fresh site that installed
    the wheel, its dependencies the newest pip finds. `make test` runs it on Python 3.13, Django 6.1
    and the client 9 against 9.2.4; `make test-oldest` on 3.11, Django 5.2 and the client 8.19. The
    site is copied outside the checkout without its pytest.ini's `../..`, so `search` is the copy
    in the venv's site-packages."""
    run([str(venv), "-m", "pip", "install", "-q", "--disable-pip-version-check", requirement("pytest"), requirement("pytest-django")])
    site = tmp_path / "notebook"
    shutil.copytree(NOTEBOOK, site, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    ini = (site / "pytest.ini").read_text()
    assert "pythonpath = . ../..\n" in ini, "the notebook's pytest.ini changed: update this test"
    (site / "pytest.ini").write_text(ini.replace("pythonpath = . ../..\n", "pythonpath = .\n"))
    from django.conf import settings

    from tests.helpers import admin

    db = settings.DATABASES["default"]
    env = clean_env(NOTEBOOK_DATABASE_URL=f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/notebook_wheel_{os.getpid()}")
    code = (
        "import json, sys, django, elasticsearch, search; "
        "print(json.dumps([sys.version_info[:2], django.VERSION[:2], elasticsearch.__versionstr__, search.__file__]))"
    )
    python, django, client, where = json.loads(run([str(venv), "-c", code], cwd=site, env=env).stdout)
    assert "site-packages" in where, where
    server = int(admin().info()["version"]["number"].split(".")[0])
    expected = [6, 1] if python >= [3, 12] else [5, 2]  # Django 6 needs Python 3.12
    assert django == expected and int(client.split(".")[0]) == server, (python, django, client, server)
    result = subprocess.run([str(venv), "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=site, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", result.stdout) and " failed" not in result.stdout, result.stdout[-2000:]


# ---------------------------------------------------------------- the guide, as written

GUIDE = ROOT / "docs" / "adopting.md"


def guide_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", GUIDE.read_text(), flags=re.S)


def guide_block(language: str, marker: str) -> str:
    """The one block of the guide in `language` that holds `marker`: fails when the guide lost it."""
    found = [block for block in guide_blocks(language) if marker in block]
    assert len(found) == 1, f"docs/adopting.md has {len(found)} {language} blocks holding {marker!r}"
    return found[0]


def guide_commands() -> list[str]:
    """Every `python manage.py ...` line of the guide's shell blocks, in order, comments cut."""
    lines = [line.split("#")[0].strip() for block in guide_blocks("sh") for line in block.splitlines()]
    return [line for line in lines if line.startswith("python manage.py ")]


def guide_site(directory: Path, *, prefix: str, database: dict) -> None:
    """The site the guide builds, from its snippets as they stand in docs/adopting.md. Changed:
    the prefix and the database (this machine's), the site's apps and URLs where the guide
    writes `# ... the site's apps/URLs ...`."""
    settings_and_urls = guide_block("python", "# settings.py")
    settings_part, urls_part = settings_and_urls.split("# urls.py", 1)
    assert '"INDEX_PREFIX": "mysite"' in settings_part and "DATABASES = {" in settings_part
    settings_part = settings_part.replace('"INDEX_PREFIX": "mysite"', f'"INDEX_PREFIX": "{prefix}"')
    settings_part = re.sub(r"DATABASES = \{.*?\n\}\n", f"DATABASES = {{'default': {database!r}}}\n", settings_part, flags=re.S)
    settings_part = settings_part.replace("# ... the site's apps ...", '"myblog",')
    project = directory / "mysite"
    with (project / "settings.py").open("a") as f:  # after startproject's own, as a site adds it
        f.write("\n" + settings_part)
    (project / "urls.py").write_text(urls_part.replace("# ... the site's URLs ...", ""))
    app = directory / "myblog"
    (app / "models.py").write_text(guide_block("python", "class Article(models.Model)"))
    (app / "search_indexes.py").write_text(guide_block("python", "@register"))
    (directory / "templates").mkdir(exist_ok=True)
    (directory / "templates" / "base.html").write_text(guide_block("django", "search/box.html"))


SITE_SHELL = """
from django.utils import timezone
from myblog.models import Article, Category
from search.api import search

step = "{step}"
if step == "existing":  # the site's rows before search came
    Article.objects.create(headline="Writing a Firefox extension", body="Add-ons for the browser.", status="live", published_at=timezone.now())
    Article.objects.create(headline="A draft about Firefox", body="Not yet.", status="draft", published_at=timezone.now())
elif step == "search":
    result = search("firefix extnsion")
    assert [hit.title for hit in result.hits] == ["Writing a Firefox extension"], result.hits
    assert result.showing_for == "firefox extension", result.showing_for
    garden = Article.objects.create(headline="Gardening in November", body="Tulip bulbs.", status="live", published_at=timezone.now())
    garden.categories.add(Category.objects.create(name="outdoors"))  # through the ORM: indexed after the commit
    result = search("tulip", detail=True)
    assert [hit.title for hit in result.hits] == ["Gardening in November"] and dict(result.facets.tags) == {{"outdoors": 1}}, result.hits
print("step", step, "ok")
"""


@pytest.fixture
def guide_database():
    """A database of its own on this machine's PostgreSQL, dropped afterwards."""
    import psycopg2
    from django.conf import settings

    db = settings.DATABASES["default"]
    name = f"guide_{os.getpid()}"
    dsn = {"host": db["HOST"], "port": db["PORT"], "user": db["USER"], "password": db["PASSWORD"] or "", "dbname": "postgres"}
    admin = psycopg2.connect(**dsn)
    admin.autocommit = True
    with admin.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    yield {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": db["USER"],
        "PASSWORD": db["PASSWORD"] or "",
        "HOST": db["HOST"],
        "PORT": str(db["PORT"]),
    }
    with admin.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


def test_the_guide_as_written_builds_a_site_that_searches(venv, tmp_path, guide_database):
    """docs/adopting.md followed step by step in a fresh virtualenv with the wheel: its snippets
    and commands as they stand in the file, on a project of `django-admin startproject`. About a
    minute besides the wheel and the venv, which the other tests here build anyway."""
    from tests.helpers import admin

    prefix = f"guide{os.getpid()}"
    export = next(line for block in guide_blocks("sh") for line in block.splitlines() if line.startswith("export ELASTICSEARCH_URL="))
    assert "http://mysite:" in export and "@127.0.0.1:9200" in export, export
    host = urlsplit(os.environ["ELASTICSEARCH_URL"].split(",")[0])
    export = export.replace("mysite:", f"{prefix}:").replace("127.0.0.1:9200", f"{host.hostname}:{host.port}")
    url = run(["bash", "-c", export + ' && echo "$ELASTICSEARCH_URL"'])
    env = clean_env(ELASTICSEARCH_URL=url.stdout.strip(), PATH=f"{venv.parent}{os.pathsep}{os.environ['PATH']}", DEBUG="1")
    env.pop("SEARCH_INDEX_PREFIX", None)
    run([str(venv.parent / "django-admin"), "startproject", "mysite", str(tmp_path)], env=env)
    run([str(venv), "manage.py", "startapp", "myblog"], cwd=tmp_path, env=env)
    guide_site(tmp_path, prefix=prefix, database=guide_database)
    commands = guide_commands()
    expected = ["search_security", "makemigrations myblog", "migrate", "reindex", "runserver"]
    assert [c.removeprefix("python manage.py ") for c in commands][:5] == expected, commands
    superuser = admin()
    try:
        for command in commands:
            args = command.split()[2:]
            if args[0] == "runserver" or "--every" in args:
                continue
            if args[0] == "reindex":
                run([str(venv), "manage.py", "shell", "-c", SITE_SHELL.format(step="existing")], cwd=tmp_path, env=env)
            run([str(venv), "manage.py", *args], cwd=tmp_path, env=env)
        migration = next((tmp_path / "myblog" / "migrations").glob("0001_*.py")).read_text()
        assert "('search', '0" in migration  # makemigrations added search's dependency itself
        run([str(venv), "manage.py", "shell", "-c", SITE_SHELL.format(step="search")], cwd=tmp_path, env=env)
        run([str(venv), "manage.py", "search_check"], cwd=tmp_path, env=env)
    finally:
        names = list(superuser.indices.get(index=f"{prefix}-*", allow_no_indices=True, expand_wildcards="all").body)
        if names:
            superuser.indices.delete(index=",".join(names))
        superuser.options(ignore_status=404).synonyms.delete_synonym(id=f"{prefix}-synonyms")
        superuser.options(ignore_status=404).security.delete_user(username=prefix)
        superuser.options(ignore_status=404).security.delete_role(name=f"{prefix}-search")
