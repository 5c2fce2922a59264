//! An error and its causes, as lines for people: the log, the command line, a development
//! error body.

/// An error and its causes, one line each, leaving out a cause whose text the line before
/// already says (many errors repeat their source in their own message).
pub fn describe(err: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut next = Some(err);
    while let Some(err) = next {
        let text = err.to_string();
        if !lines.last().is_some_and(|last| last.contains(&text)) {
            lines.push(text);
        }
        next = err.source();
    }
    lines
}

#[cfg(test)]
mod tests {
    use anyhow::Context;

    use super::*;

    #[test]
    fn causes_are_listed_once() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "Connection refused");
        let err = Err::<(), _>(io)
            .context("cannot reach it: Connection refused")
            .context("cannot start")
            .unwrap_err();
        assert_eq!(
            describe(err.as_ref()),
            ["cannot start", "cannot reach it: Connection refused"]
        );
    }
}
