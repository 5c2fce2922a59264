//! Reading `weights.npz`: a zip archive of `.npy` arrays as `numpy.savez_compressed` writes them.
//!
//! Only what the model file uses is understood: `.npy` format 1.0 to 3.0, C order,
//! little-endian `f4`, `f8` and `u1`. Every array is checked for its dtype and shape
//! against what the forward pass expects before it is read, so a file that is not this model
//! gives an error that names the array, never a panic or a wrong-sized matrix.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use zip::ZipArchive;
use zip::result::ZipError;

use crate::ModelError;

/// One `.npy` member's element type, as its header's `descr` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dtype {
    F32,
    F64,
    U8,
}

impl Dtype {
    fn parse(descr: &str) -> Option<Dtype> {
        match descr {
            "<f4" => Some(Dtype::F32),
            "<f8" => Some(Dtype::F64),
            "|u1" | "<u1" | ">u1" => Some(Dtype::U8),
            _ => None,
        }
    }

    fn size(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::F64 => 8,
            Dtype::U8 => 1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "float32",
            Dtype::F64 => "float64",
            Dtype::U8 => "uint8",
        }
    }
}

/// The archive, opened; arrays are read from it by name, each once.
pub(crate) struct Npz {
    path: std::path::PathBuf,
    zip: ZipArchive<BufReader<File>>,
}

impl Npz {
    pub(crate) fn open(path: &Path) -> Result<Npz, ModelError> {
        let file = File::open(path).map_err(|e| ModelError::open(path, e))?;
        let zip = ZipArchive::new(BufReader::new(file))
            .map_err(|e| ModelError::invalid(path, format!("not a zip archive ({e})")))?;
        Ok(Npz {
            path: path.to_owned(),
            zip,
        })
    }

    fn invalid(&self, problem: String) -> ModelError {
        ModelError::invalid(&self.path, problem)
    }

    /// The raw little-endian bytes of array `name`, after checking its dtype and shape.
    fn read(&mut self, name: &str, dtype: Dtype, shape: &[usize]) -> Result<Vec<u8>, ModelError> {
        let member = format!("{name}.npy");
        let mut entry = match self.zip.by_name(&member) {
            Ok(entry) => entry,
            Err(ZipError::FileNotFound) => {
                return Err(ModelError::invalid(&self.path, format!("array {name} is missing")));
            }
            Err(e) => return Err(ModelError::invalid(&self.path, format!("array {name}: {e}"))),
        };
        // Reads no more than the expected data and a header of up to 64 KiB (all that format 1.0
        // allows): a corrupt entry cannot make us allocate or inflate more than the model needs.
        let count: usize = shape.iter().product();
        let limit = count * dtype.size() + 10 + usize::from(u16::MAX);
        let mut bytes = Vec::with_capacity(limit.min(usize::try_from(entry.size()).unwrap_or(limit)));
        let read = (&mut entry).take(limit as u64 + 1).read_to_end(&mut bytes);
        drop(entry);
        read.map_err(|e| self.invalid(format!("array {name}: {e}")))?;
        let (header_len, found_dtype, found_shape) =
            parse_header(&bytes).map_err(|e| self.invalid(format!("array {name}: {e}")))?;
        if found_dtype != Some(dtype) {
            let found = found_dtype.map_or("of a dtype not read here", Dtype::name);
            return Err(self.invalid(format!("array {name} is {found}, expected {}", dtype.name())));
        }
        if found_shape != shape {
            return Err(self.invalid(format!("array {name} has shape {found_shape:?}, expected {shape:?}")));
        }
        let data = &bytes[header_len..];
        if data.len() != count * dtype.size() {
            return Err(self.invalid(format!(
                "array {name} holds {} bytes of data, expected {}",
                data.len(),
                count * dtype.size()
            )));
        }
        bytes.drain(..header_len);
        Ok(bytes)
    }

    /// A `float32` array of the given shape, row-major.
    pub(crate) fn f32s(&mut self, name: &str, shape: &[usize]) -> Result<Vec<f32>, ModelError> {
        let bytes = self.read(name, Dtype::F32, shape)?;
        let values: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(self.invalid(format!("array {name} holds a value that is not finite at {i}")));
        }
        Ok(values)
    }

    /// A `float64` scalar (shape `()`).
    pub(crate) fn f64_scalar(&mut self, name: &str) -> Result<f64, ModelError> {
        let bytes = self.read(name, Dtype::F64, &[])?;
        let value = f64::from_le_bytes(bytes[..8].try_into().expect("checked: 8 bytes"));
        if !value.is_finite() {
            return Err(self.invalid(format!("array {name} is not finite")));
        }
        Ok(value)
    }

    /// A `uint8` array of the given shape, row-major.
    pub(crate) fn u8s(&mut self, name: &str, shape: &[usize]) -> Result<Vec<u8>, ModelError> {
        self.read(name, Dtype::U8, shape)
    }
}

/// Parses a `.npy` header: its length in bytes (where the data starts), dtype and shape.
fn parse_header(bytes: &[u8]) -> Result<(usize, Option<Dtype>, Vec<usize>), String> {
    const MAGIC: &[u8] = b"\x93NUMPY";
    if bytes.len() < 10 || !bytes.starts_with(MAGIC) {
        return Err("not a .npy array".into());
    }
    let (len, start): (usize, usize) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(format!(".npy format version {v} is not supported")),
    };
    let end = start
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or(".npy header is truncated")?;
    let header = std::str::from_utf8(&bytes[start..end]).map_err(|_| ".npy header is not text")?;
    let descr = dict_value(header, "descr").ok_or(".npy header has no descr")?;
    let descr = descr.trim_matches(|c| c == '\'' || c == '"');
    let fortran = dict_value(header, "fortran_order").ok_or(".npy header has no fortran_order")?;
    if fortran != "False" {
        return Err("array is in Fortran order".into());
    }
    let shape = dict_value(header, "shape").ok_or(".npy header has no shape")?;
    let shape = shape
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .ok_or(".npy header's shape is not a tuple")?;
    let shape = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().map_err(|_| format!(".npy header's shape has {s:?}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((end, Dtype::parse(descr), shape))
}

/// The text of `key`'s value in the header's Python dict literal: a quoted string, a word, or
/// a parenthesised tuple.
fn dict_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let quoted = [format!("'{key}'"), format!("\"{key}\"")];
    let at = quoted
        .iter()
        .find_map(|q| header.find(q.as_str()).map(|i| i + q.len()))?;
    let rest = header[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')')? + 1
    } else if let Some(quote) = rest.chars().next().filter(|&c| c == '\'' || c == '"') {
        rest[1..].find(quote)? + 2
    } else {
        rest.find([',', '}']).unwrap_or(rest.len())
    };
    Some(rest[..end].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(header: &str) -> Vec<u8> {
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        bytes
    }

    #[test]
    fn headers_as_numpy_writes_them() {
        let h = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1280, 256), }      \n");
        assert_eq!(parse_header(&h).unwrap(), (h.len(), Some(Dtype::F32), vec![1280, 256]));
        let h = npy("{'descr': '|u1', 'fortran_order': False, 'shape': (17,), }\n");
        assert_eq!(parse_header(&h).unwrap().2, vec![17]);
        let h = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n");
        assert_eq!(parse_header(&h).unwrap().1, Some(Dtype::F64));
        assert_eq!(parse_header(&h).unwrap().2, Vec::<usize>::new());
    }

    #[test]
    fn headers_it_refuses() {
        assert!(parse_header(b"PK\x03\x04").is_err());
        let h = npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n");
        assert_eq!(parse_header(&h).unwrap_err(), "array is in Fortran order");
        let h = npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }\n");
        assert_eq!(parse_header(&h).unwrap().1, None);
        let mut h = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n");
        h.truncate(h.len() - 5);
        assert!(parse_header(&h).unwrap_err().contains("truncated"));
    }
}
