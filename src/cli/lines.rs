//! The lines of a file of one JSON object a line (`lostfound items import`), read a line at a
//! time through a bounded buffer: a line may hold what `POST /api/items` accepts, and a longer
//! one is refused once that much of it is read, so no line takes more memory than that. A
//! UTF-8 byte-order mark before the first line is dropped (spreadsheet programs on Windows
//! write one), and the lines read are summed up in a SHA-256, which names the file's import.

use std::path::Path;

use anyhow::{Context, anyhow};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};

/// The longest line, in bytes (without its line break).
pub const MAX_LINE: usize = crate::domain::MAX_REPORT_BYTES;
/// How much of the file one read takes.
const READ_SIZE: usize = 64 * 1024;

pub struct Lines {
    name: String,
    lines: FramedRead<tokio::fs::File, LinesCodec>,
    /// The number of the last line read, from 1.
    number: usize,
    sha256: Sha256,
}

impl Lines {
    pub async fn open(path: &Path) -> anyhow::Result<Self> {
        let name = path.display().to_string();
        let file = tokio::fs::File::open(path)
            .await
            .with_context(|| format!("cannot read {name}"))?;
        Ok(Self {
            name,
            lines: FramedRead::with_capacity(file, LinesCodec::new_with_max_length(MAX_LINE), READ_SIZE),
            number: 0,
            sha256: Sha256::new(),
        })
    }

    /// The next line that is not blank, with its number; `None` at the end of the file.
    pub async fn next(&mut self) -> anyhow::Result<Option<(usize, String)>> {
        while let Some(line) = self.lines.next().await {
            self.number += 1;
            let n = self.number;
            let mut line = line.map_err(|err| match err {
                LinesCodecError::MaxLineLengthExceeded => anyhow!(
                    "{} line {n} is longer than {} MiB, the most a line may hold",
                    self.name,
                    MAX_LINE >> 20
                ),
                LinesCodecError::Io(err) => {
                    anyhow::Error::new(err).context(format!("cannot read {} line {n}", self.name))
                }
            })?;
            if n == 1 && line.starts_with('\u{FEFF}') {
                line.remove(0);
            }
            self.sha256.update(line.as_bytes());
            self.sha256.update(b"\n");
            if !line.trim().is_empty() {
                return Ok(Some((n, line)));
            }
        }
        Ok(None)
    }

    /// The SHA-256 of the lines read so far, in hexadecimal.
    pub fn sha256(&self) -> String {
        format!("{:x}", self.sha256.clone().finalize())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines_of(text: &str) -> (Vec<(usize, String)>, Option<String>, String) {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), text).unwrap();
        let mut lines = Lines::open(file.path()).await.unwrap();
        let mut read = Vec::new();
        let error = loop {
            match lines.next().await {
                Ok(Some(line)) => read.push(line),
                Ok(None) => break None,
                Err(err) => break Some(err.to_string()),
            }
        };
        (read, error, lines.sha256())
    }

    #[tokio::test]
    async fn lines_up_to_the_bound_are_read_without_a_byte_order_mark_or_blank_lines() {
        let longest = "x".repeat(MAX_LINE);
        let (read, error, sha256) = lines_of(&format!("\u{FEFF}first\r\n\n  \n{longest}\nlast")).await;
        let numbered = [(1, "first".to_owned()), (4, longest), (5, "last".to_owned())];
        assert_eq!((read, error), (numbered.to_vec(), None));
        // The same lines, saved otherwise, are the same file.
        let longest = &numbered[1].1;
        assert_eq!(lines_of(&format!("first\n\n  \n{longest}\nlast\n")).await.2, sha256);
        assert_ne!(lines_of(&format!("first\n\n  \n{longest}\nlast\nmore")).await.2, sha256);
    }

    #[tokio::test]
    async fn a_line_over_the_bound_is_refused_with_its_number() {
        let (read, error, _) = lines_of(&format!("first\n{}\nlast", "x".repeat(MAX_LINE + 1))).await;
        assert_eq!(read, [(1, "first".to_owned())]);
        let error = error.unwrap();
        assert!(
            error.ends_with(" line 2 is longer than 8 MiB, the most a line may hold"),
            "{error}"
        );
    }
}
