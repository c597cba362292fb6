"""Run the code blocks of a Markdown file against a live server, so the docs cannot drift.

Reusable for any Markdown file (the README, the SDK's README, the guides under docs/):
:func:`code_blocks` extracts the fenced blocks (language, code, line, directive and its reason)
and :class:`ExampleRunner` runs them in order.

* ``sh`` blocks run command by command (``\\``-continued lines joined; comment and blank lines
  skipped) with ``bash -c``; ``python`` blocks run whole, in this interpreter. Blocks in other
  languages, or with none, are not run.
* Placeholders: a known prefix followed by ``...`` (``ak_live_...``, ``acct_...``,
  ``service_sess_...``, ``whsec_...``, ``hfs_...``) is replaced by the last value with that
  prefix that an earlier command printed, as a reader copies it. Other text is replaced by the
  ``replace`` mapping (the documented ``127.0.0.1:8000`` by the live server's address).
* An HTML comment on the line before a block directs the runner:
  ``<!-- readme-test: skip (why) -->`` leaves the block out (it starts a server or runs the
  suite: the test does that itself); ``<!-- readme-test: background (...) -->`` starts the block's
  one command and leaves it running (a listener), until :meth:`ExampleRunner.close`.

Every command must exit 0; its output is kept in :attr:`ExampleRunner.transcript`.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

_FENCE = re.compile(r"^```([\w+-]*)\s*$")
_DIRECTIVE = re.compile(r"^<!--\s*readme-test:\s*(\w+)\b\s*(?:\((.*)\))?\s*-->\s*$")
PLACEHOLDER_PREFIXES = ("ak_live_", "ak_test_", "acct_", "service_sess_", "whsec_", "hfs_", "job_")
_VALUE = r"[A-Za-z0-9_\-+/=]+"


@dataclass(frozen=True)
class Block:
    language: str
    code: str
    line: int  # 1-based line of the opening fence
    directive: str | None  # "skip", "background" or None
    reason: str | None = None  # the directive's "(...)": why the block is skipped or kept running


def code_blocks(markdown: str) -> list[Block]:
    """The fenced code blocks of ``markdown``, in order."""
    blocks: list[Block] = []
    lines = markdown.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        directive = reason = None
        if index > 0:
            found = _DIRECTIVE.match(lines[index - 1].strip())
            if found:
                directive, reason = found.group(1), (found.group(2) or "").strip() or None
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        code = "\n".join(lines[index + 1 : end]) + "\n"
        blocks.append(Block(opening.group(1).lower(), code, index + 1, directive, reason))
        index = end + 1
    return blocks


def shell_commands(code: str) -> list[str]:
    """One string per command: continuation lines joined, comments and blank lines dropped."""
    commands: list[str] = []
    pending = ""
    for raw in code.splitlines():
        line = raw.rstrip()
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if pending:
            line = line.strip()
        if line.endswith("\\"):
            pending += line[:-1].rstrip() + " "
            continue
        commands.append(pending + line)
        pending = ""
    if pending:
        commands.append(pending)
    return commands


@dataclass
class ExampleRunner:
    env: dict[str, str]
    cwd: Path
    replace: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = 180.0
    values: dict[str, str] = field(default_factory=dict)
    transcript: list[tuple[str, str]] = field(default_factory=list)
    background: list[tuple[subprocess.Popen[str], Path]] = field(default_factory=list)
    log_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="readme-")))

    def fill(self, text: str) -> str:
        for old, new in self.replace.items():
            text = text.replace(old, new)
        for prefix in PLACEHOLDER_PREFIXES:
            placeholder = prefix + "..."
            if placeholder in text and prefix in self.values:
                text = text.replace(placeholder, self.values[prefix])
        return text

    def _remember(self, output: str) -> None:
        for prefix in PLACEHOLDER_PREFIXES:
            found = re.findall(rf"(?<![A-Za-z0-9_]){re.escape(prefix)}{_VALUE}", output)
            real = [value for value in found if not value.endswith("...")]
            if real:
                self.values[prefix] = real[-1]

    def _check(self, what: str, done: subprocess.CompletedProcess[str]) -> None:
        self.transcript.append((what, done.stdout + done.stderr))
        if done.returncode != 0:
            raise AssertionError(
                f"README example failed (exit {done.returncode}): {what}\n"
                f"{done.stdout}\n{done.stderr}"
            )
        self._remember(done.stdout)

    def run(self, block: Block) -> None:
        if block.directive == "skip" or block.language not in ("sh", "bash", "python"):
            return
        if block.language == "python":
            code = self.fill(block.code)
            done = subprocess.run(
                [sys.executable, "-c", code], env=self.env, cwd=self.cwd, capture_output=True,
                text=True, timeout=self.timeout_s, check=False,
            )  # fmt: skip
            self._check(f"python block at line {block.line}", done)
            return
        for command in shell_commands(block.code):
            filled = self.fill(command)
            if block.directive == "background":
                self._start(filled)
                continue
            done = subprocess.run(
                ["bash", "-c", filled], env=self.env, cwd=self.cwd, capture_output=True,
                text=True, timeout=self.timeout_s, check=False,
            )  # fmt: skip
            self._check(filled, done)

    def _start(self, command: str, ready: str = "Listening", wait_s: float = 120.0) -> None:
        log = self.log_dir / f"background-{len(self.background)}.log"
        log_file = log.open("w")
        process = subprocess.Popen(
            ["bash", "-c", f"exec {command}"], env=self.env, cwd=self.cwd, stdout=log_file,
            stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        log_file.close()
        self.background.append((process, log))
        deadline = time.monotonic() + wait_s
        while ready not in log.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"README background command did not start: {command}\n"
                                     f"{log.read_text()}")  # fmt: skip
            time.sleep(0.1)

    def background_output(self, index: int = 0) -> str:
        return self.background[index][1].read_text()

    def run_all(self, markdown: str) -> None:
        for block in code_blocks(markdown):
            self.run(block)

    def close(self) -> None:
        for process, log in self.background:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)
            log.unlink(missing_ok=True)
