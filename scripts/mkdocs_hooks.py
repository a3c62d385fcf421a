"""MkDocs hooks (mkdocs.yml): SPEC.md, which stays at the top of the repository, is the
site's page ``spec.md``, and a page's link to ``../SPEC.md`` (right when the page is read
in the repository) becomes a link to that page. The links are then checked as any other
(``mkdocs build --strict``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SPEC_LINK = re.compile(r"\]\(((?:\.\./)+)SPEC\.md")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri == "spec.md":
        # SPEC.md's own links are relative to the top of the repository.
        markdown = (ROOT / "SPEC.md").read_text(encoding="utf-8").replace("](docs/", "](")

    def to_page(m: re.Match[str]) -> str:
        return "](" + m[1][3:] + "spec.md"

    return SPEC_LINK.sub(to_page, markdown)
