# Production image of the blog search site: gunicorn behind whatever proxy you run, static files
# served by WhiteNoise (compressed, hashed names).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 DEBUG=0
WORKDIR /app

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# collectstatic needs settings that load; the real key comes from the environment at run time.
RUN SECRET_KEY=build-only-not-secret-collectstatic python manage.py collectstatic --noinput \
    && useradd --system --no-create-home app
USER app

EXPOSE 8000
# gthread workers, as measured by bench/load.py: a request waiting on Elasticsearch ties up a
# thread, not a whole worker.
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--worker-class", "gthread", \
     "--workers", "3", "--threads", "2", "--keep-alive", "5", "--access-logfile", "-"]
