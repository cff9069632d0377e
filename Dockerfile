# Production image of the blog search site: gunicorn behind whatever proxy you run, static files
# served by WhiteNoise (compressed, hashed names).
# The search app (pyproject.toml: the django-typo-search distribution, with the dictionary's
# compiled extension from native/lexicon/) built as a wheel in a throw-away stage.
FROM rust:1-slim-bookworm AS wheel
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip python3-venv && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /build && /build/bin/pip install "maturin>=1.9,<2"
COPY pyproject.toml /src/
COPY docs/adopting.md /src/docs/
COPY native/lexicon /src/native/lexicon
COPY search /src/search
RUN cd /src && /build/bin/maturin build --release --out /wheels

# The newest corner of the supported matrix (docs/testing.md#versions): Python 3.13, Django 6.1 and
# the client 9.x (constraints/newest.txt), for the Elasticsearch 9 of docker-compose.yml.
FROM python:3.13-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 DEBUG=0
WORKDIR /app

COPY requirements.txt .
COPY constraints/newest.txt constraints.txt
COPY --from=wheel /wheels /wheels
RUN pip install -r requirements.txt -c constraints.txt /wheels/*.whl

COPY . .
# The site uses the installed app, as any site would: not the checkout's copy of search/.
RUN rm -rf search native
# collectstatic needs settings that load; the real key comes from the environment at run time.
RUN SECRET_KEY=build-only-not-secret-collectstatic python manage.py collectstatic --noinput \
    && useradd --system --no-create-home app
USER app

EXPOSE 8000
# gthread workers, as measured by bench/load.py: a request waiting on Elasticsearch ties up a
# thread, not a whole worker.
# config/gunicorn.py: Prometheus's multiprocess mode, so /metrics adds up every worker's counters.
CMD ["gunicorn", "config.wsgi:application", "-c", "config/gunicorn.py", "--bind", "0.0.0.0:8000", "--worker-class", "gthread", \
     "--workers", "3", "--threads", "2", "--keep-alive", "5", "--access-logfile", "-"]
