"""The restore drill of docs/operations.md (Backups), run for real.

A production stack (API and worker processes on PostgreSQL, Redis and the file store: an S3
bucket, or the data directory) is populated through the SDK: an account with a customer login,
an encrypted client profile, a calculation on it, a PDF report. Then the backup, as the guide
says: ``pg_dump --format=custom`` (the PostgreSQL binaries of the test run: ``ASTRO_TEST_PG_BIN``
from scripts/test.sh) and a copy of every file; then the disaster (the database dropped, the
files deleted); then the restore: ``CREATE DATABASE ... TEMPLATE template0``, ``pg_restore
--no-owner``, the files put back in a new bucket or data directory, ``astro-server migrate``
("already current"), new processes with the same ASTRO_SECRET_KEY. Found intact: the balance
and every ledger row, the customer login, the report (its file downloads, the same bytes), the
profile decrypted, the calculation on it; new work is charged. A server on another key reads
the profile as gone (404), as the guide warns.

The suite runs the drill on the S3 bucket (the production store); the same drill on the data
directory runs with it in ``benchmarks/drills/backup_restore.py`` (each store's run takes a minute
or more of wall time: two stacks, a PDF, a dump and a restore). Only the file copy differs between
the two stores (``backup_files``/``destroy_files``/``restore_files``); the data-directory store's
reading and writing of files is tested in packages/astro_server/tests/test_files.py.
"""

from __future__ import annotations

import glob
import json
import os
import secrets
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

import astro_sdk
from astro_sdk import AstroClient
from tests._support.drill import DRILL
from tests._support.stack import Stack
from tests._support.stack import pg_admin as _pg_admin

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

SUBJECT = {"date": "1984-02-29", "time": "06:15", "latitude": 18.7883, "longitude": 98.9853}
NAME, NOTES, TAG = "Kanya Boonmee", "Restored from the nightly dump", "drill"
PASSWORD = "restore-drill-password"


def pg_tool(name: str) -> str:
    """``pg_dump``/``pg_restore`` of the server the tests run on (scripts/test.sh exports its
    binaries' folder as ASTRO_TEST_PG_BIN): a client older than the server cannot dump it."""
    folders = [os.environ.get("ASTRO_TEST_PG_BIN", "")]
    folders += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4]))[
        ::-1
    ]
    for folder in folders:
        if folder and os.access(os.path.join(folder, name), os.X_OK):
            return os.path.join(folder, name)
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} not found (set ASTRO_TEST_PG_BIN)")
    return found


def cli_json(stack: Stack, *args: str) -> dict[str, Any]:
    out = stack.run_cli(*args, "--json")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def s3_client() -> Any:
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=os.environ["ASTRO_TEST_S3_ENDPOINT"],
        aws_access_key_id="test",
        aws_secret_access_key="test",
        region_name="us-east-1",
    )


def s3_settings(bucket: str) -> dict[str, str]:
    return {
        "ASTRO_STORAGE_URL": f"s3://{bucket}/files",
        "ASTRO_S3_ENDPOINT_URL": os.environ["ASTRO_TEST_S3_ENDPOINT"],
        "ASTRO_S3_ACCESS_KEY_ID": "test",
        "ASTRO_S3_SECRET_ACCESS_KEY": "test",
        "ASTRO_S3_REGION": "us-east-1",
    }


def bucket_objects(bucket: str) -> list[str]:
    pages = s3_client().get_paginator("list_objects_v2").paginate(Bucket=bucket)
    return sorted(item["Key"] for page in pages for item in page.get("Contents", []))


def backup_files(env: dict[str, str], into: Path) -> int:
    """Copy every stored file to ``into`` (``aws s3 sync`` / ``cp -a`` of the guide)."""
    into.mkdir(parents=True)
    url = env.get("ASTRO_STORAGE_URL")
    if url is None:
        shutil.copytree(Path(env["ASTRO_DATA_DIR"]) / "files", into, dirs_exist_ok=True)
        return len(list(into.rglob("*")))
    bucket = url.removeprefix("s3://").split("/", 1)[0]
    keys = bucket_objects(bucket)
    for key in keys:
        target = into / key
        target.parent.mkdir(parents=True, exist_ok=True)
        s3_client().download_file(bucket, key, str(target))
    return len(keys)


def destroy_files(env: dict[str, str]) -> None:
    url = env.get("ASTRO_STORAGE_URL")
    if url is None:
        shutil.rmtree(Path(env["ASTRO_DATA_DIR"]) / "files")
        return
    bucket = url.removeprefix("s3://").split("/", 1)[0]
    for key in bucket_objects(bucket):
        s3_client().delete_object(Bucket=bucket, Key=key)
    assert bucket_objects(bucket) == []


def restore_files(backup: Path, env: dict[str, str]) -> None:
    url = env.get("ASTRO_STORAGE_URL")
    if url is None:
        shutil.copytree(backup, Path(env["ASTRO_DATA_DIR"]) / "files")
        return
    bucket = url.removeprefix("s3://").split("/", 1)[0]
    for path in backup.rglob("*"):
        if path.is_file():
            s3_client().upload_file(str(path), bucket, path.relative_to(backup).as_posix())


def new_database(pg_url: str, name: str) -> str:
    _pg_admin(pg_url, f'CREATE DATABASE "{name}" TEMPLATE template0')
    return f"{pg_url.rsplit('/', 1)[0]}/{name}"


@pytest.mark.parametrize("store", ["s3", "data_dir"] if DRILL else ["s3"])
def test_restore_drill_finds_everything_intact(
    store: str, production_stack: Stack, pg_url: str, tmp_path: Path
) -> None:
    if store == "s3" and not os.environ.get("ASTRO_TEST_S3_ENDPOINT"):
        pytest.skip("ASTRO_TEST_S3_ENDPOINT not set (run through scripts/test.sh)")
    stack = production_stack
    buckets = []
    if store == "s3":
        buckets = ["astro-drill-" + secrets.token_hex(5) for _ in range(2)]
        for bucket in buckets:
            s3_client().create_bucket(Bucket=bucket)
        stack.env.update(s3_settings(buckets[0]))

    # --- a populated production system ----------------------------------------------------
    made = cli_json(
        stack, "create-account", "--name", "drill", "--tier", "enterprise", "--credits", "500"
    )
    key = made["api_key"]
    email = f"owner-{made['account_id']}@example.test"
    stack.run_cli(
        "create-customer", "--account", made["account_id"], "--email", email,
        "--password", PASSWORD,
    )  # fmt: skip
    server, worker = stack.server(), stack.worker()
    with AstroClient(api_key=key, base_url=server.base_url, max_retries=0) as client:
        profile = client.profiles.create(name=NAME, birth=SUBJECT, tags=[TAG], notes=NOTES)
        chart = client.western.natal(subject={"profile_id": profile.id}).model_dump()
        report = client.reports.natal_pdf(birth_subject=SUBJECT, name=NAME)
        assert report.pdf_url is not None
        pdf = httpx.get(report.pdf_url, timeout=30).content
        assert pdf.startswith(b"%PDF-")
        balance = client.account.get().account.credits_balance
        ledger = [entry.model_dump() for entry in client.ledger.list()]
    assert balance < 500
    assert len(ledger) >= 3  # the profile's calculation, the report, (the opening credits)
    server.stop()
    worker.stop()

    # --- backup -----------------------------------------------------------------------------
    dump = tmp_path / "astro.dump"
    old_url = stack.env["ASTRO_DATABASE_URL"]
    subprocess.run(
        [pg_tool("pg_dump"), "--format=custom", f"--file={dump}", old_url],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    files_backup = tmp_path / "files-backup"
    assert backup_files(stack.env, files_backup) >= 1

    # --- the disaster ------------------------------------------------------------------------
    _pg_admin(pg_url, f'DROP DATABASE "{old_url.rsplit("/", 1)[1]}" WITH (FORCE)')
    destroy_files(stack.env)

    # --- restore -------------------------------------------------------------------------------
    restored_name = "astro_restored_" + secrets.token_hex(5)
    restored_url = new_database(pg_url, restored_name)
    restored = Stack(env=dict(stack.env), tmp=tmp_path / "restored")
    restored.tmp.mkdir()
    try:
        subprocess.run(
            [pg_tool("pg_restore"), "--no-owner", f"--dbname={restored_url}", str(dump)],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        restored.env["ASTRO_DATABASE_URL"] = restored_url
        restored.env["ASTRO_DATA_DIR"] = str(restored.tmp / "var")
        if store == "s3":
            restored.env.update(s3_settings(buckets[1]))
        restore_files(files_backup, restored.env)
        migrated = restored.run_cli("migrate")
        assert "already current" in migrated.stdout

        server = restored.server()
        restored.worker()
        with AstroClient(api_key=key, base_url=server.base_url, max_retries=0) as client:
            assert client.account.get().account.credits_balance == balance
            assert [entry.model_dump() for entry in client.ledger.list()] == ledger
            again = client.reports.get(report.report_id)
            assert again.status == "succeeded"
            assert again.pdf_url is not None
            assert httpx.get(again.pdf_url, timeout=30).content == pdf
            back = client.profiles.get(profile.id)
            assert (back.name, back.notes, back.tags) == (NAME, NOTES, [TAG])
            assert client.western.natal(subject={"profile_id": profile.id}).model_dump() == chart
            # New work on the restored system: charged, rendered, stored.
            fresh = client.reports.natal_pdf(
                birth_subject=SUBJECT, name="After the restore", format="html"
            )
            assert fresh.html_url is not None
            assert "After the restore" in httpx.get(fresh.html_url, timeout=30).text
            assert client.account.get().account.credits_balance < balance
        with AstroClient(base_url=server.base_url, max_retries=0) as anonymous:
            session = anonymous.auth.login(email, PASSWORD).auth.session
            assert session is not None
            assert session.customer.account_id == made["account_id"]
        # A server on any other key cannot open the account's data key: the profile is gone.
        stranger = restored.server({"ASTRO_SECRET_KEY": secrets.token_urlsafe(48)})
        with (
            AstroClient(api_key=key, base_url=stranger.base_url, max_retries=0) as client,
            pytest.raises(astro_sdk.NotFoundError),
        ):
            client.profiles.get(profile.id)
    finally:
        restored.close()
        _pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)')
        if buckets:
            for bucket in buckets:
                for key_name in bucket_objects(bucket):
                    s3_client().delete_object(Bucket=bucket, Key=key_name)
                s3_client().delete_bucket(Bucket=bucket)
