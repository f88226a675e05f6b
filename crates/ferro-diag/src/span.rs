//! Source locations: a file id and a byte range, shared by every stage.

use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Identifies one source file within a load of a configuration (dense, starting at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// A byte range in one file. `start <= end`; offsets are byte offsets into the file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, range: Range<usize>) -> Self {
        Span {
            file,
            start: range.start as u32,
            end: range.end as u32,
        }
    }

    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering both (they must be in the same file).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// An empty span at the start of this one.
    pub fn start_point(self) -> Span {
        Span {
            file: self.file,
            start: self.start,
            end: self.start,
        }
    }
}

impl ariadne::Span for Span {
    type SourceId = FileId;

    fn source(&self) -> &FileId {
        &self.file
    }

    fn start(&self) -> usize {
        self.start as usize
    }

    fn end(&self) -> usize {
        self.end as usize
    }
}
