//! Open documents, by URI.
//!
//! A document holds the client's current text, its line index, the
//! configuration discovered for its directory, and the [`Facts`] of the last
//! analysis — `None` while an edit has not been analysed yet. Edits mark the
//! document stale; the server re-analyses it once no message is waiting (so a
//! burst of keystrokes costs one analysis), or at once when a request needs
//! the facts.

use super::backend::{self, Facts, LoadedConfig};
use super::position::{Encoding, LineIndex};
use lsp_types::{TextDocumentContentChangeEvent, Uri};
use std::collections::HashMap;
use std::path::PathBuf;
use warpscope::incremental::KernelCache;
use warpscope::source::SourceFile;

/// One open document.
pub struct Document {
    /// The client's version number.
    pub version: i32,
    /// Current text.
    pub text: String,
    /// Line starts of `text`.
    pub lines: LineIndex,
    /// The file on disk, for `file:` URIs.
    pub path: Option<PathBuf>,
    /// The configuration in force.
    pub config: LoadedConfig,
    /// Facts of the current text; `None` when stale.
    pub facts: Option<Facts>,
    /// The diagnostics of the current text have not been published yet (a
    /// request may have analysed the text first).
    pub unpublished: bool,
    /// The last analysis's kernels, reused for kernels an edit left as they
    /// were ([`warpscope::incremental`]).
    pub cache: KernelCache,
}

impl Document {
    /// A freshly opened document (configuration discovered, not analysed).
    pub fn new(uri: &Uri, version: i32, text: String) -> Document {
        let path = file_path(uri);
        let config = backend::discover_config(path.as_deref().and_then(|p| p.parent()));
        Document {
            version,
            lines: LineIndex::new(&text),
            text,
            path,
            config,
            facts: None,
            unpublished: true,
            cache: KernelCache::default(),
        }
    }

    /// Applies the client's edits (full or ranged) in order.
    pub fn apply(
        &mut self,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        enc: Encoding,
    ) {
        for c in changes {
            match c.range {
                None => self.text = c.text,
                Some(r) => {
                    let span = self.lines.span(&self.text, r, enc);
                    self.text.replace_range(span.range(), &c.text);
                }
            }
            self.lines = LineIndex::new(&self.text);
        }
        self.version = version;
        self.facts = None;
        self.unpublished = true;
    }

    /// Re-reads the configuration (on save: `warpscope.toml` may have changed).
    pub fn rediscover_config(&mut self) {
        self.config = backend::discover_config(self.path.as_deref().and_then(|p| p.parent()));
        self.facts = None;
        self.unpublished = true;
    }

    /// The facts of the current text, analysing it if stale.
    pub fn facts(&mut self) -> &Facts {
        if self.facts.is_none() {
            let name = self
                .path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "<editor>".into());
            let file = SourceFile::new(name, self.text.as_bytes().to_vec());
            let facts = match file {
                Ok(file) => backend::analyse(&file, &self.config, &mut self.cache),
                // Over 4 GiB: nothing to say (an editor will not get there).
                Err(_) => Facts::default(),
            };
            self.facts = Some(facts);
        }
        self.facts.get_or_insert_with(Facts::default)
    }
}

/// The documents the client has open.
#[derive(Default)]
pub struct Documents {
    docs: HashMap<Uri, Document>,
}

impl Documents {
    /// Opens (or reopens) a document.
    pub fn open(&mut self, uri: Uri, version: i32, text: String) {
        let doc = Document::new(&uri, version, text);
        self.docs.insert(uri, doc);
    }
    /// Closes a document.
    pub fn close(&mut self, uri: &Uri) {
        self.docs.remove(uri);
    }
    /// A document by URI.
    pub fn get_mut(&mut self, uri: &Uri) -> Option<&mut Document> {
        self.docs.get_mut(uri)
    }
    /// URIs of the documents whose diagnostics are not published yet.
    pub fn stale(&self) -> Vec<Uri> {
        self.docs
            .iter()
            .filter(|(_, d)| d.unpublished)
            .map(|(u, _)| u.clone())
            .collect()
    }
    /// Every open document.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Uri, &mut Document)> {
        self.docs.iter_mut()
    }
}

/// The local path of a `file:` URI (percent-decoded), if it is one.
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    let scheme = uri.scheme()?;
    if !scheme.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let decoded = uri.path().as_estr().decode().into_string().ok()?;
    let s: &str = &decoded;
    // `file:///C:/x` on Windows: drop the slash before the drive letter.
    #[cfg(windows)]
    let s = s
        .strip_prefix('/')
        .filter(|r| r.as_bytes().get(1) == Some(&b':'))
        .unwrap_or(s);
    Some(PathBuf::from(s))
}

/// The `file:` URI of a local path (absolute paths only; bytes outside the
/// URI's unreserved set are percent-encoded).
pub fn path_uri(path: &std::path::Path) -> Option<Uri> {
    let abs = std::path::absolute(path).ok()?;
    let s = abs.to_str()?.replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_and_paths_round_trip() {
        let p = std::path::Path::new("/tmp/a dir/ké.ptx");
        let uri = path_uri(p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/k%C3%A9.ptx");
        assert_eq!(file_path(&uri).unwrap(), p);
        let untitled: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(file_path(&untitled), None);
    }
}
