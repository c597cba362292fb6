"""Writers of a reading's text from its measured features.

* :class:`BuiltinWriter` (``builtin``): the rule-based one; every sentence comes from the data
  files (``data/face.json``, ``data/palm.json``) in English and Thai; 0 tokens. Its cost is the
  worker CPU time of the whole analysis at ``ASTRO_VISUAL_CPU_MICROS_PER_S``.
* :class:`ChatWriter` (``llm``): an OpenAI-compatible ``POST {base}/chat/completions`` (set by
  ``ASTRO_LLM_BASE_URL``, ``ASTRO_LLM_MODEL``, ``ASTRO_LLM_API_KEY``) asked to phrase the
  built-in reading; the reported ``usage`` tokens are recorded and priced per million tokens
  (``ASTRO_LLM_INPUT_MICROS_PER_MTOK``, ``ASTRO_LLM_OUTPUT_MICROS_PER_MTOK``). Only measured
  features and texts are sent, never the photo.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from astro_server.features.visual.data import table
from astro_server.settings import Settings

ESTIMATED_OUTPUT_TOKENS = 600


@dataclass
class Written:
    summary: str
    sections: list[dict[str, str]]
    input_tokens: int = 0
    output_tokens: int = 0


def builtin_reading(kind: str, features: dict[str, Any], language: str) -> Written:
    data = table(kind)
    texts, labels = data["texts"], data["labels"][language]
    sections: list[dict[str, str]] = []
    if kind == "face":
        for name in ("face_shape", "zones", "eyebrows", "eyes", "nose", "mouth"):
            value = features[name]["value"] if name != "zones" else features[name]["dominant"]
            sections.append(
                {"feature": name, "title": labels[name], "text": texts[name][value][language]}
            )
    else:
        sections.append(
            {
                "feature": "hand_type",
                "title": labels["hand_type"],
                "text": texts["hand_type"][features["hand_type"]["value"]][language],
            }
        )
        sections.append(
            {
                "feature": "index_to_ring",
                "title": labels["hand_type"],
                "text": texts["index_to_ring"][features["index_to_ring"]["longer"]][language],
            }
        )
        sections.append(
            {
                "feature": "thumb",
                "title": labels["hand_type"],
                "text": texts["thumb"][features["thumb"]["class"]][language],
            }
        )
        for name, line in features["lines"].items():
            key = line["shape"] if line["found"] else "missing"
            text = texts["lines"][name][key][language]
            if line["found"] and line["breaks"]:
                text += " " + texts["lines"]["breaks"][language].format(n=line["breaks"])
            sections.append({"feature": f"lines.{name}", "title": labels[name], "text": text})
    summary = f"{labels['title']}: " + " ".join(s["text"] for s in sections[:2])
    return Written(summary, sections)


def estimate_cost_micros(settings: Settings, kind: str) -> int:
    """Estimated at queue: the LLM's price for a typical prompt and answer, else one CPU second
    of the built-in writer (the benchmark's p50 is under that)."""
    if settings.llm_base_url and settings.llm_model:
        prompt = 900 if kind == "face" else 1100
        return (
            prompt * settings.llm_input_micros_per_mtok
            + ESTIMATED_OUTPUT_TOKENS * settings.llm_output_micros_per_mtok
        ) // 1_000_000
    return settings.visual_cpu_micros_per_s


def chat_prompt(kind: str, base: Written, language: str) -> str:
    """The request to phrase ``base``, in the reading's language (``data/writer.json``: a Thai
    reading is asked for in Thai, in the คุณ register, keeping the source's terms)."""
    data = table("writer")
    lang = "th" if language == "th" else "en"
    return str(data["prompt"][lang]).format(
        kind_name=data["kind_names"][lang][kind],
        sections="\n".join(f"{s['title']}: {s['text']}" for s in base.sections),
    )


async def chat_reading(
    settings: Settings, base: Written, language: str, kind: str = "face"
) -> Written:
    """Ask the configured chat-completions endpoint to phrase ``base``; keeps its sections."""
    prompt = chat_prompt(kind, base, language)
    headers = {"Authorization": f"Bearer {settings.llm_api_key}"} if settings.llm_api_key else {}
    async with httpx.AsyncClient(timeout=60, follow_redirects=False) as client:
        response = await client.post(
            f"{settings.llm_base_url}/chat/completions",
            headers=headers,
            json={"model": settings.llm_model, "messages": [{"role": "user", "content": prompt}]},
        )
        response.raise_for_status()
        body = response.json()
    usage = body.get("usage") or {}
    text = str(body["choices"][0]["message"]["content"]).strip()
    return Written(
        text,
        base.sections,
        int(usage.get("prompt_tokens", 0)),
        int(usage.get("completion_tokens", 0)),
    )


def actual_cost_micros(settings: Settings, written: Written, cpu_s: float) -> int:
    if written.input_tokens or written.output_tokens:
        return (
            written.input_tokens * settings.llm_input_micros_per_mtok
            + written.output_tokens * settings.llm_output_micros_per_mtok
        ) // 1_000_000
    return round(cpu_s * settings.visual_cpu_micros_per_s)
