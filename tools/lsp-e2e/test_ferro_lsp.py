"""End-to-end tests of `ferro lsp` driven by a third-party client (pytest-lsp, on pygls) over
stdio, as an editor drives it: initialize, didOpen/didChange, diagnostics, hover, definition,
references, completion, rename, formatting, shutdown/exit.

FERRO_BIN names the ferro binary; tools/lsp-e2e.sh builds it and installs pytest-lsp."""

import os
import pathlib
import shutil
import tempfile

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

FERRO = os.environ.get("FERRO_BIN", "ferro")

MAIN = """variable "region" {
  type        = string
  default     = "eu"
  description = "Where everything goes."
}

resource "random_id" "suffix" {
  byte_length = 4
}

module "net" {
  source = "./modules/net"
  cidr   = var.region
}

output "id" {
  value = "${random_id.suffix.hex}-${module.net.subnet}"
}
"""

NET = """variable "cidr" {
  type = string
}

output "subnet" {
  value = var.cidr
}
"""

ROOT = pathlib.Path(tempfile.mkdtemp(prefix="ferro-lsp-e2e-"))
(ROOT / "modules" / "net").mkdir(parents=True)
(ROOT / "main.tf").write_text(MAIN)
(ROOT / "modules" / "net" / "main.tf").write_text(NET)
MAIN_URI = (ROOT / "main.tf").as_uri()
NET_URI = (ROOT / "modules" / "net" / "main.tf").as_uri()


def pos(text: str, needle: str, delta: int = 0) -> t.Position:
    i = text.index(needle) + delta
    line = text.count("\n", 0, i)
    return t.Position(line=line, character=i - (text.rfind("\n", 0, i) + 1))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[FERRO, "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        t.InitializeParams(
            capabilities=t.ClientCapabilities(),
            root_uri=ROOT.as_uri(),
        )
    )
    yield
    await lsp_client.shutdown_session()


def open_doc(client: LanguageClient, uri: str, text: str):
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="terraform", version=1, text=text)
        )
    )


async def diagnostics_after(client: LanguageClient, uri: str):
    """Diagnostics of `uri` once the server has handled what was sent before."""
    # A request is answered after the diagnostics of the edits before it are published.
    await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="none"))
    return list(client.diagnostics.get(uri, []))


async def test_diagnostics_as_you_type(client: LanguageClient):
    open_doc(client, MAIN_URI, MAIN)
    assert await diagnostics_after(client, MAIN_URI) == []
    p = pos(MAIN, "var.region\n", 4)
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=MAIN_URI, version=2),
            content_changes=[
                t.TextDocumentContentChangePartial(
                    range=t.Range(start=p, end=t.Position(line=p.line, character=p.character + 1)),
                    text="x",
                )
            ],
        )
    )
    diags = await diagnostics_after(client, MAIN_URI)
    assert len(diags) == 1
    assert diags[0].message.startswith("Reference to undeclared input variable")
    assert diags[0].range.start == pos(MAIN, "var.region\n")
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=MAIN_URI, version=3),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=MAIN)],
        )
    )
    assert await diagnostics_after(client, MAIN_URI) == []


async def test_hover(client: LanguageClient):
    h = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=MAIN_URI), position=pos(MAIN, "var.region\n", 5))
    )
    assert "Where everything goes." in h.contents.value
    h = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=MAIN_URI), position=pos(MAIN, "byte_length", 1))
    )
    assert "required" in h.contents.value


async def test_definition_and_references_across_modules(client: LanguageClient):
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=t.TextDocumentIdentifier(uri=MAIN_URI), position=pos(MAIN, "net.subnet", 5))
    )
    assert loc.uri == NET_URI
    assert loc.range.start == pos(NET, 'subnet"')
    refs = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=t.TextDocumentIdentifier(uri=NET_URI),
            position=pos(NET, 'cidr"', 1),
            context=t.ReferenceContext(include_declaration=True),
        )
    )
    assert sorted(r.uri for r in refs) == sorted([MAIN_URI, NET_URI, NET_URI])


async def test_completion(client: LanguageClient):
    text = MAIN.replace("cidr   = var.region", "cidr   = var.")
    open_doc(client, MAIN_URI, text)
    result = await client.text_document_completion_async(
        t.CompletionParams(text_document=t.TextDocumentIdentifier(uri=MAIN_URI), position=pos(text, "= var.", 6))
    )
    assert [i.label for i in result.items] == ["region"]
    result = await client.text_document_completion_async(
        t.CompletionParams(text_document=t.TextDocumentIdentifier(uri=MAIN_URI), position=pos(text, "= var.", 2))
    )
    labels = {i.label for i in result.items}
    assert {"jsonencode", "var", "local"} <= labels


async def test_rename(client: LanguageClient):
    edit = await client.text_document_rename_async(
        t.RenameParams(
            text_document=t.TextDocumentIdentifier(uri=NET_URI), position=pos(NET, "subnet"), new_name="sub"
        )
    )
    assert set(edit.changes) == {MAIN_URI, NET_URI}
    assert [e.new_text for e in edit.changes[MAIN_URI]] == ["sub"]
    assert edit.changes[MAIN_URI][0].range.start == pos(MAIN, "subnet}")


async def test_formatting(client: LanguageClient):
    uri = (ROOT / "messy.tf").as_uri()
    open_doc(client, uri, 'locals {\n  a=1\n  bb = "x"\n}\n')
    edits = await client.text_document_formatting_async(
        t.DocumentFormattingParams(
            text_document=t.TextDocumentIdentifier(uri=uri), options=t.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    assert [e.new_text for e in edits] == ['locals {\n  a  = 1\n  bb = "x"\n}\n']


def teardown_module():
    shutil.rmtree(ROOT, ignore_errors=True)
