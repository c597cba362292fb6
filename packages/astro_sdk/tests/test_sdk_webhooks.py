"""Standard Webhooks verification and signing, checked against the published test vector and
against the reference ``standardwebhooks`` package in both directions."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest
import standardwebhooks
from hypothesis import given, settings
from hypothesis import strategies as st

from astro_sdk import (
    WebhookHeaderError,
    WebhookSecretError,
    WebhookSignatureError,
    WebhookTimestampError,
    WebhookVerificationError,
    webhooks,
)

# The Standard Webhooks / Svix published vector (used by the svix and standard-webhooks libraries'
# own tests, e.g. svix-webhooks PHP `testSignFunctionWorks`).
VECTOR_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
VECTOR_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
VECTOR_TIMESTAMP = 1614265330
VECTOR_BODY = b'{"test": 2432232314}'
VECTOR_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="

SECRET = webhooks.generate_secret()
BODY = b'{"type":"horoscope.delivered","data":{"sign":"leo","text":"\xe0\xb8\x94\xe0\xb8\xb5"}}'


def vector_headers() -> dict[str, str]:
    return {
        "webhook-id": VECTOR_ID,
        "webhook-timestamp": str(VECTOR_TIMESTAMP),
        "webhook-signature": VECTOR_SIGNATURE,
    }


def test_sign_reproduces_the_published_vector() -> None:
    headers = webhooks.sign(
        VECTOR_BODY, VECTOR_SECRET, msg_id=VECTOR_ID, timestamp=VECTOR_TIMESTAMP
    )
    assert headers == vector_headers()


def test_verify_accepts_the_published_vector() -> None:
    payload = webhooks.verify(VECTOR_BODY, vector_headers(), VECTOR_SECRET, now=VECTOR_TIMESTAMP)
    assert payload == {"test": 2432232314}


def test_our_signature_verifies_with_the_reference_library() -> None:
    headers = webhooks.sign(BODY, SECRET)
    assert standardwebhooks.Webhook(SECRET).verify(BODY, headers) == json.loads(BODY)


def test_the_reference_librarys_signature_verifies_with_ours() -> None:
    msg_id = "msg_" + "b" * 24
    now = datetime.now(UTC)
    signature = standardwebhooks.Webhook(SECRET).sign(msg_id, now, BODY.decode())
    headers = {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": signature,
    }
    assert webhooks.verify(BODY, headers, SECRET) == json.loads(BODY)


def test_rotation_signatures_verify_with_either_secret() -> None:
    old, new = webhooks.generate_secret(), webhooks.generate_secret()
    headers = webhooks.sign(BODY, [old, new])
    assert headers["webhook-signature"].count("v1,") == 2
    webhooks.verify_signature(BODY, headers, old)
    webhooks.verify_signature(BODY, headers, new)
    assert standardwebhooks.Webhook(new).verify(BODY, headers) == json.loads(BODY)


def test_a_receiver_may_hold_several_secrets_while_rotating() -> None:
    old, new = webhooks.generate_secret(), webhooks.generate_secret()
    headers = webhooks.sign(BODY, new)
    webhooks.verify_signature(BODY, headers, [old, new])
    with pytest.raises(WebhookSignatureError):
        webhooks.verify_signature(BODY, headers, [old])


def test_a_wrong_secret_is_a_signature_error() -> None:
    headers = webhooks.sign(BODY, SECRET)
    with pytest.raises(WebhookSignatureError):
        webhooks.verify(BODY, headers, webhooks.generate_secret())


def test_a_tampered_body_is_a_signature_error() -> None:
    headers = webhooks.sign(BODY, SECRET)
    with pytest.raises(WebhookSignatureError):
        webhooks.verify(BODY.replace(b"leo", b"lea"), headers, SECRET)


def test_a_changed_id_is_a_signature_error() -> None:
    headers = webhooks.sign(BODY, SECRET)
    headers["webhook-id"] = "msg_other"
    with pytest.raises(WebhookSignatureError):
        webhooks.verify(BODY, headers, SECRET)


def test_headers_are_matched_case_insensitively() -> None:
    headers = {k.upper(): v for k, v in webhooks.sign(BODY, SECRET).items()}
    webhooks.verify_signature(BODY, headers, SECRET)


def test_headers_may_be_a_list_of_pairs() -> None:
    webhooks.verify_signature(BODY, list(webhooks.sign(BODY, SECRET).items()), SECRET)


def test_a_body_passed_as_text_verifies_like_its_utf8_bytes() -> None:
    headers = webhooks.sign(BODY, SECRET)
    webhooks.verify_signature(BODY.decode(), headers, SECRET)


@pytest.mark.parametrize(
    ("age_s", "ok"),
    [(0, True), (300, True), (301, False), (-300, True), (-301, False)],
)
def test_timestamp_tolerance_edges(age_s: int, ok: bool) -> None:
    now = 1_700_000_000
    headers = webhooks.sign(BODY, SECRET, timestamp=now - age_s)
    if ok:
        webhooks.verify_signature(BODY, headers, SECRET, now=now)
    else:
        with pytest.raises(WebhookTimestampError, match="old" if age_s > 0 else "future"):
            webhooks.verify_signature(BODY, headers, SECRET, now=now)


def test_tolerance_is_configurable() -> None:
    now = 1_700_000_000
    headers = webhooks.sign(BODY, SECRET, timestamp=now - 30)
    webhooks.verify_signature(BODY, headers, SECRET, now=now, tolerance_s=30)
    with pytest.raises(WebhookTimestampError):
        webhooks.verify_signature(BODY, headers, SECRET, now=now, tolerance_s=29)


def test_an_old_delivery_is_refused_even_with_a_good_signature() -> None:
    headers = webhooks.sign(BODY, SECRET, timestamp=int(time.time()) - 3600)
    with pytest.raises(WebhookTimestampError):
        webhooks.verify(BODY, headers, SECRET)


@pytest.mark.parametrize("missing", ["webhook-id", "webhook-timestamp", "webhook-signature"])
def test_a_missing_header_is_a_header_error(missing: str) -> None:
    headers = webhooks.sign(BODY, SECRET)
    del headers[missing]
    with pytest.raises(WebhookHeaderError, match=missing):
        webhooks.verify(BODY, headers, SECRET)


@pytest.mark.parametrize("timestamp", ["soon", "1.5e9", "-100", "0x10"])
def test_a_non_integer_timestamp_is_a_header_error(timestamp: str) -> None:
    headers = webhooks.sign(BODY, SECRET)
    headers["webhook-timestamp"] = timestamp
    with pytest.raises(WebhookHeaderError, match="integer"):
        webhooks.verify(BODY, headers, SECRET)


@pytest.mark.parametrize("signature", ["garbage", "v1", ",abc", "v1,"])
def test_a_signature_header_without_any_entry_is_a_header_error(signature: str) -> None:
    headers = webhooks.sign(BODY, SECRET)
    headers["webhook-signature"] = signature
    with pytest.raises(WebhookHeaderError):
        webhooks.verify(BODY, headers, SECRET)


def test_only_v1_entries_count() -> None:
    headers = webhooks.sign(BODY, SECRET)
    headers["webhook-signature"] = headers["webhook-signature"].replace("v1,", "v1a,")
    with pytest.raises(WebhookSignatureError):
        webhooks.verify(BODY, headers, SECRET)


def test_a_good_entry_among_bad_ones_verifies() -> None:
    headers = webhooks.sign(BODY, SECRET)
    headers["webhook-signature"] = "v1,!!notbase64 v2,xyz " + headers["webhook-signature"]
    webhooks.verify_signature(BODY, headers, SECRET)


def test_every_failure_is_a_webhook_verification_error() -> None:
    for cls in (WebhookHeaderError, WebhookTimestampError, WebhookSignatureError):
        assert issubclass(cls, WebhookVerificationError)


@pytest.mark.parametrize("secret", ["whsec_", "whsec_***", ""])
def test_a_malformed_secret_is_a_value_error(secret: str) -> None:
    with pytest.raises(ValueError, match="secret"):
        webhooks.sign(BODY, secret)


def test_a_secret_without_base64_padding_is_accepted_like_the_reference_library() -> None:
    unpadded = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwAA"  # 34 base64 chars
    headers = webhooks.sign(BODY, unpadded)
    assert standardwebhooks.Webhook(unpadded).verify(BODY, headers) == json.loads(BODY)


@settings(max_examples=50, deadline=None)
@given(
    body=st.dictionaries(st.text(max_size=20), st.text(max_size=40), max_size=5),
    msg_id=st.from_regex(r"msg_[a-zA-Z0-9]{1,30}", fullmatch=True),
)
def test_signatures_agree_with_the_reference_library_for_any_payload(
    body: dict[str, str], msg_id: str
) -> None:
    raw = json.dumps(body, ensure_ascii=False).encode()
    now = int(time.time())
    ours = webhooks.sign(raw, SECRET, msg_id=msg_id, timestamp=now)
    theirs = standardwebhooks.Webhook(SECRET).sign(
        msg_id, datetime.fromtimestamp(now, UTC), raw.decode()
    )
    assert ours["webhook-signature"] == theirs
    assert webhooks.verify(raw, ours, SECRET) == body


@pytest.mark.parametrize("secret", ["whsec_", "whsec_***", ""])
def test_verify_with_a_malformed_secret_is_a_webhook_verification_error(secret: str) -> None:
    headers = webhooks.sign(BODY, SECRET)
    with pytest.raises(WebhookVerificationError, match="secret") as caught:
        webhooks.verify(BODY, headers, secret)
    assert isinstance(caught.value, WebhookSecretError)
    assert isinstance(caught.value, ValueError)


def test_sign_with_a_dict_says_it_takes_str_or_bytes() -> None:
    with pytest.raises(TypeError, match=r"str \| bytes .* not dict"):
        webhooks.sign({"type": "job.succeeded"}, SECRET)  # type: ignore[arg-type]


def test_verify_with_a_dict_says_it_takes_str_or_bytes() -> None:
    headers = webhooks.sign(BODY, SECRET)
    with pytest.raises(TypeError, match=r"str \| bytes"):
        webhooks.verify({"type": "job.succeeded"}, headers, SECRET)  # type: ignore[arg-type]


def test_the_webhooks_module_exports_its_exceptions_as_standard_webhooks_users_expect() -> None:
    # `from standardwebhooks import WebhookVerificationError` users write the same from here.
    from astro_sdk.webhooks import (
        WebhookHeaderError as FromModuleHeader,
    )
    from astro_sdk.webhooks import (
        WebhookSecretError as FromModuleSecret,
    )
    from astro_sdk.webhooks import (
        WebhookVerificationError as FromModule,
    )

    assert FromModule is WebhookVerificationError
    assert FromModuleSecret is WebhookSecretError
    assert FromModuleHeader is WebhookHeaderError
    for name in (
        "WebhookVerificationError",
        "WebhookSecretError",
        "WebhookHeaderError",
        "WebhookTimestampError",
        "WebhookSignatureError",
        "generate_secret",
        "sign",
        "verify",
    ):
        assert name in webhooks.__all__, name


def test_generate_secret_makes_a_standard_webhooks_secret_the_reference_package_accepts() -> None:
    import base64

    made = {webhooks.generate_secret() for _ in range(20)}
    assert len(made) == 20  # random each time
    for secret in made:
        assert secret.startswith("whsec_")
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
        assert 24 <= len(key) <= 64  # the scheme's bounds; ours is 32
        headers = webhooks.sign(BODY, secret)
        assert standardwebhooks.Webhook(secret).verify(BODY, headers) == json.loads(BODY)
