//! Reading `sp.model`: the parts of a SentencePiece `ModelProto` (protobuf) the tokenizer uses.
//!
//! As the reference (`pure_tokenizer.py`) reads it: the repeated pieces (field 1) with their
//! text (1) and score (2, a `float`, 0 when absent), in order, so a piece's id is its index;
//! and the normaliser's precompiled charsmap (field 3, `normalizer_spec`, its field 2). Nothing
//! else is read: the piece types are not (the reference treats control and user-defined
//! pieces like any other), nor the normaliser's flags (the reference fixes them to what this
//! model's spec says anyway: dummy prefix, remove extra whitespace, escape whitespace).

/// The pieces, packed: one string of all their texts and where each ends. For the 128,000
/// pieces of USE multilingual v3 that is 1.1 MB of text and 0.5 MB of ends, where a `String`
/// each would cost 128,000 allocations and 3 MB of headers besides.
pub(crate) struct Pieces {
    pub text: Vec<u8>,
    /// `ends[i]` is where piece `i` ends in `text`; it starts where piece `i - 1` ends.
    pub ends: Vec<u32>,
    pub scores: Vec<f32>,
}

/// What the tokenizer needs from the model file.
pub(crate) struct ModelProto<'a> {
    pub pieces: Pieces,
    /// The normaliser's precompiled charsmap, if the file has one.
    pub charsmap: Option<&'a [u8]>,
}

/// Parses the file's bytes; the error says what is malformed, for "not a SentencePiece model".
pub(crate) fn parse(data: &[u8]) -> Result<ModelProto<'_>, String> {
    let mut pieces = Pieces {
        text: Vec::new(),
        ends: Vec::new(),
        scores: Vec::new(),
    };
    let mut charsmap = None;
    let mut normalizer_seen = false;
    for field in Fields::new(data) {
        match field? {
            (1, Value::Bytes(piece)) => {
                let id = pieces.ends.len();
                let (text, score) = parse_piece(piece).map_err(|e| format!("piece {id}: {e}"))?;
                pieces.text.extend_from_slice(text.as_bytes());
                let end = u32::try_from(pieces.text.len()).map_err(|_| "pieces too long".to_string())?;
                pieces.ends.push(end);
                pieces.scores.push(score);
            }
            // The first normaliser spec counts, as in the reference.
            (3, Value::Bytes(spec)) if !normalizer_seen => {
                normalizer_seen = true;
                for field in Fields::new(spec) {
                    if let (2, Value::Bytes(map)) = field.map_err(|e| format!("normalizer spec: {e}"))? {
                        charsmap.get_or_insert(map);
                    }
                }
            }
            _ => {}
        }
    }
    if pieces.ends.is_empty() {
        return Err("no pieces".into());
    }
    Ok(ModelProto { pieces, charsmap })
}

/// A `SentencePiece` message: its text (required here) and score.
fn parse_piece(data: &[u8]) -> Result<(&str, f32), String> {
    let mut text = None;
    let mut score = None;
    for field in Fields::new(data) {
        match field? {
            (1, Value::Bytes(bytes)) if text.is_none() => {
                text = Some(std::str::from_utf8(bytes).map_err(|_| "text is not UTF-8")?);
            }
            (2, Value::Fixed32(bytes)) if score.is_none() => score = Some(f32::from_le_bytes(bytes)),
            (2, _) => return Err("score is not a float".into()),
            _ => {}
        }
    }
    let text = text.ok_or("no text")?;
    let score = score.unwrap_or(0.0);
    if !score.is_finite() {
        return Err("score is not finite".into());
    }
    Ok((text, score))
}

/// A protobuf field's value, by wire type (groups, long deprecated, are refused).
enum Value<'a> {
    Varint,
    Fixed64,
    Bytes(&'a [u8]),
    Fixed32([u8; 4]),
}

/// The fields of one protobuf message, in order, each checked against the message's end.
struct Fields<'a> {
    data: &'a [u8],
    pos: usize,
    failed: bool,
}

impl<'a> Fields<'a> {
    fn new(data: &'a [u8]) -> Self {
        Fields {
            data,
            pos: 0,
            failed: false,
        }
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.data.get(self.pos).ok_or("truncated varint")?;
            self.pos += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("varint longer than 10 bytes".into())
    }

    fn take(&mut self, len: u64) -> Result<&'a [u8], String> {
        let end = usize::try_from(len)
            .ok()
            .and_then(|len| self.pos.checked_add(len))
            .filter(|&end| end <= self.data.len())
            .ok_or("field runs past the end of its message")?;
        let bytes = &self.data[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    fn field(&mut self) -> Result<(u64, Value<'a>), String> {
        let tag = self.varint()?;
        let number = tag >> 3;
        let value = match tag & 7 {
            0 => {
                self.varint()?;
                Value::Varint
            }
            1 => {
                self.take(8)?;
                Value::Fixed64
            }
            2 => {
                let len = self.varint()?;
                Value::Bytes(self.take(len)?)
            }
            5 => Value::Fixed32(self.take(4)?.try_into().expect("took 4 bytes")),
            wire => return Err(format!("field {number} has wire type {wire}")),
        };
        if number == 0 {
            return Err("field number 0".into());
        }
        Ok((number, value))
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u64, Value<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.data.len() {
            return None;
        }
        let field = self.field();
        self.failed = field.is_err();
        Some(field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A length-delimited field (lengths under 128 here).
    fn bytes_field(number: u8, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![number << 3 | 2, bytes.len() as u8];
        out.extend_from_slice(bytes);
        out
    }

    fn piece(text: &str, score: f32) -> Vec<u8> {
        let mut message = bytes_field(1, text.as_bytes());
        message.push(2 << 3 | 5);
        message.extend_from_slice(&score.to_le_bytes());
        message.extend_from_slice(&[3 << 3, 1]); // type: NORMAL, a varint skipped
        bytes_field(1, &message)
    }

    #[test]
    fn pieces_in_order_and_the_charsmap() {
        let mut model = piece("<unk>", 0.0);
        model.extend(piece("▁a", -1.5));
        model.extend(bytes_field(2, &[0x08, 0x96, 0x01])); // trainer spec: not read
        model.extend(bytes_field(3, &bytes_field(2, b"map")));
        let proto = parse(&model).unwrap();
        assert_eq!(proto.pieces.text, "<unk>▁a".as_bytes());
        assert_eq!(proto.pieces.ends, [5, 9]);
        assert_eq!(proto.pieces.scores, [0.0, -1.5]);
        assert_eq!(proto.charsmap, Some(&b"map"[..]));
    }

    #[test]
    fn malformed_messages() {
        assert_eq!(parse(b"").err().unwrap(), "no pieces");
        assert_eq!(
            parse(b"\x0a\x05ab").err().unwrap(),
            "field runs past the end of its message"
        );
        assert_eq!(parse(b"\x0a\x02\x18\x01").err().unwrap(), "piece 0: no text");
        assert_eq!(
            parse(b"\x0a\x02\x12\x00").err().unwrap(),
            "piece 0: score is not a float"
        );
        assert_eq!(parse(b"\x0b").err().unwrap(), "field 1 has wire type 3");
        assert_eq!(
            parse(b"\x0a\x04\x0a\x02\xff\xfe").err().unwrap(),
            "piece 0: text is not UTF-8"
        );
    }
}
