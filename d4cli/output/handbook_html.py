"""``handbook --format html``: the handbook's Markdown as one HTML document that a browser
prints to PDF as a handbook chapter.

The Markdown (`d4cli.output.render.handbook.handbook_markdown`) is turned into HTML by
markdown-it-py (CommonMark and its pipe tables; raw HTML in the text is shown as text,
never run), inside a page with print CSS: A4 pages with margins and page numbers, each
section (``##``) on a new page, a heading kept with what follows, a table's header row
repeated on every page it spans and none of its rows cut in two.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from markdown_it import MarkdownIt

PRINT_CSS = """\
@page { size: A4; margin: 18mm 16mm 20mm; @bottom-center { content: counter(page); } }
:root { color: #111; background: #fff; }
body { font: 10.5pt/1.45 Georgia, "Times New Roman", serif; max-width: 46em; margin: 2em auto; padding: 0 1em; }
h1, h2, h3 { font-family: "Helvetica Neue", Arial, sans-serif; line-height: 1.2; break-after: avoid; }
h1 { font-size: 22pt; margin: 0 0 0.5em; }
h2 { font-size: 15pt; margin-top: 0; break-before: page; }
h3 { font-size: 11.5pt; margin: 1.4em 0 0.4em; }
p { orphans: 3; widows: 3; }
p:has(+ table), p:has(+ table) + table { break-before: avoid; }
table { border-collapse: collapse; font: 9pt/1.3 "Helvetica Neue", Arial, sans-serif; margin: 0.5em 0 1.2em; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { border: 1px solid #bbb; padding: 2px 6px; vertical-align: top; }
th { background: #eef2f7; }
code { font-size: 0.92em; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  a { color: inherit; text-decoration: none; }
}
"""


def handbook_html(markdown: str, title: str) -> str:
    """*markdown* as one HTML document titled *title*, with `PRINT_CSS` (a newline at the end)."""
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n"
        f"<style>\n{PRINT_CSS}</style>\n</head>\n"
        f'<body>\n<article class="chapter">\n{body}</article>\n</body>\n</html>\n'
    )
