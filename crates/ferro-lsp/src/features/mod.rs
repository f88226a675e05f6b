//! The requests the server answers, each in its own module, and what they share: the document
//! a request is about, positions, locations.

mod actions;
mod complete;
mod complete_encryption;
mod context;
mod hover;
mod import_identity;
mod nav;
mod signature;
mod symbols;
mod syntax;
pub(crate) mod test_files;

use crate::lines::{path_to_uri, uri_to_path, LineIndex};
use crate::rpc::code;
use crate::server::{invalid_params, RpcError};
use crate::world::World;
use ferro_db::SourceFile;
use ferro_diag::Span;
use serde_json::{json, Value};
use std::path::PathBuf;

pub use syntax::TOKEN_TYPES;

/// What the server announces in `initialize`.
pub fn capabilities(utf8: bool) -> Value {
    json!({
        "positionEncoding": if utf8 { "utf-8" } else { "utf-16" },
        "textDocumentSync": {"openClose": true, "change": 2},
        "hoverProvider": true,
        "definitionProvider": true,
        "referencesProvider": true,
        "completionProvider": {"triggerCharacters": [".", "\""], "resolveProvider": false},
        "documentSymbolProvider": true,
        "workspaceSymbolProvider": true,
        "renameProvider": {"prepareProvider": true},
        "documentFormattingProvider": true,
        "semanticTokensProvider": {
            "legend": {"tokenTypes": TOKEN_TYPES, "tokenModifiers": []},
            "full": true,
        },
        "signatureHelpProvider": {"triggerCharacters": ["(", ","]},
        "foldingRangeProvider": true,
        "codeActionProvider": {"codeActionKinds": ["quickfix"]},
    })
}

/// Answer one request.
pub fn dispatch(w: &World, method: &str, params: &Value, utf8: bool) -> Result<Value, RpcError> {
    if method == "workspace/symbol" {
        let query = params.get("query").and_then(Value::as_str).unwrap_or("");
        return Ok(symbols::workspace_symbols(w, query, utf8));
    }
    const DOCUMENT_METHODS: &[&str] = &[
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/prepareRename",
        "textDocument/rename",
        "textDocument/completion",
        "textDocument/documentSymbol",
        "textDocument/formatting",
        "textDocument/semanticTokens/full",
        "textDocument/foldingRange",
        "textDocument/signatureHelp",
        "textDocument/codeAction",
    ];
    if !DOCUMENT_METHODS.contains(&method) {
        return Err((
            code::METHOD_NOT_FOUND,
            format!("ferro lsp does not handle {method}"),
        ));
    }
    let doc = Doc::new(w, params, utf8)?;
    match method {
        "textDocument/hover" => hover::hover(&doc, doc.offset(params)?),
        "textDocument/definition" => nav::definition(&doc, doc.offset(params)?),
        "textDocument/references" => {
            let decl = params
                .pointer("/context/includeDeclaration")
                .and_then(Value::as_bool)
                .unwrap_or(true);
            nav::references(&doc, doc.offset(params)?, decl)
        }
        "textDocument/prepareRename" => nav::prepare_rename(&doc, doc.offset(params)?),
        "textDocument/rename" => {
            let new = params
                .get("newName")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid_params("rename needs newName"))?;
            nav::rename(&doc, doc.offset(params)?, new)
        }
        "textDocument/completion" => complete::completion(&doc, doc.offset(params)?),
        "textDocument/documentSymbol" => Ok(symbols::document_symbols(&doc)),
        "textDocument/formatting" => Ok(syntax::format(&doc)),
        "textDocument/semanticTokens/full" => Ok(syntax::semantic_tokens(&doc)),
        "textDocument/foldingRange" => Ok(syntax::folding_ranges(&doc)),
        "textDocument/signatureHelp" => Ok(signature::help(&doc, doc.offset(params)?)),
        "textDocument/codeAction" => {
            let range = params
                .get("range")
                .ok_or_else(|| invalid_params("codeAction needs a range"))?;
            let s = range.get("start").and_then(|p| doc.idx.offset_of(p));
            let e = range.get("end").and_then(|p| doc.idx.offset_of(p));
            match (s, e) {
                (Some(s), Some(e)) => Ok(actions::code_actions(&doc, s, e)),
                _ => Err(invalid_params("malformed range")),
            }
        }
        _ => Err((
            code::METHOD_NOT_FOUND,
            format!("ferro lsp does not handle {method}"),
        )),
    }
}

/// The document a request is about.
pub struct Doc<'a> {
    pub w: &'a World,
    pub file: SourceFile,
    pub path: PathBuf,
    pub text: &'a str,
    pub idx: LineIndex<'a>,
    pub utf8: bool,
}

impl<'a> Doc<'a> {
    fn new(w: &'a World, params: &Value, utf8: bool) -> Result<Self, RpcError> {
        let uri = params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid_params("the request names no textDocument.uri"))?;
        let path =
            uri_to_path(uri).ok_or_else(|| invalid_params(format!("{uri} is not a file: URI")))?;
        let file = w.file(&path).ok_or_else(|| {
            invalid_params(format!(
                "{uri} is not an open document or a configuration file of the workspace"
            ))
        })?;
        let text = file.text(&w.db).as_str();
        Ok(Doc {
            w,
            file,
            path,
            text,
            idx: LineIndex::new(text, utf8),
            utf8,
        })
    }

    fn offset(&self, params: &Value) -> Result<u32, RpcError> {
        params
            .get("position")
            .and_then(|p| self.idx.offset_of(p))
            .map(|o| o as u32)
            .ok_or_else(|| invalid_params("the request has no valid position"))
    }

    pub fn range(&self, span: Span) -> Value {
        self.idx.range(span.start as usize, span.end as usize)
    }

    pub fn uri(&self) -> String {
        path_to_uri(&self.path)
    }

    pub fn module(&self) -> Option<ferro_db::Module> {
        self.w.module_of(self.file)
    }

    /// The functions of the provider this document's module calls `local` (declared in its
    /// `required_providers`), from the schema catalog.
    pub fn provider_functions(
        &self,
        local: &str,
    ) -> Option<&'a std::collections::BTreeMap<String, ferro_value::schema::FunctionDecl>> {
        let db = &self.w.db;
        let module = self.module()?;
        if !ferro_db::module_index(db, module)
            .required_providers
            .contains_key(local)
        {
            return None;
        }
        let addr = ferro_db::provider_source(db, module, local).ok()?;
        self.w
            .catalog
            .providers
            .get(&addr.to_string())
            .map(|p| &p.functions)
    }
}

/// An LSP location of a span in any file of the workspace.
pub fn location(w: &World, file: SourceFile, span: Span, utf8: bool) -> Value {
    let text = file.text(&w.db);
    let idx = LineIndex::new(text, utf8);
    json!({
        "uri": path_to_uri(&w.path_of(file)),
        "range": idx.range(span.start as usize, span.end as usize),
    })
}

/// The source text of a span in any file.
pub fn source_of(w: &World, file: SourceFile, span: Span) -> String {
    file.text(&w.db)
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
        .to_string()
}
