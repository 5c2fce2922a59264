//! The layout keeps its own rules: no two modules of `src/` import each other (directly or
//! round a longer circle), other than a module and its own children; and every module
//! imports only what docs/architecture.md says it may.
//!
//! The sources are read as text: comments and string literals are left out, then every
//! `use` tree and every `crate::…`, `super::…` or `self::…` path is resolved to the deepest
//! module it names.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

/// A module's path from the crate root: `["store", "items"]`.
type ModPath = Vec<String>;

struct Sources {
    /// Every module with a file of its own, and its code without comments and strings.
    modules: BTreeMap<ModPath, String>,
}

impl Sources {
    fn read() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut modules = BTreeMap::new();
        for file in rust_files(&root) {
            let relative = file.strip_prefix(&root).unwrap().with_extension("");
            let mut path: ModPath = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            match path.last().map(String::as_str) {
                // The binary is a crate of its own, which uses the library by name.
                Some("main") if path.len() == 1 => continue,
                Some("lib") if path.len() == 1 => path.clear(),
                Some("mod") => {
                    path.pop();
                }
                _ => {}
            }
            modules.insert(path, code_only(&std::fs::read_to_string(&file).unwrap()));
        }
        Self { modules }
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.modules.contains_key(path)
    }

    /// The deepest module `segments` names, read from `base` on.
    fn resolve(&self, mut base: ModPath, segments: &[&str]) -> ModPath {
        for segment in segments {
            base.push((*segment).to_owned());
            if !self.is_module(&base) {
                base.pop();
                break;
            }
        }
        base
    }

    /// Every module each module refers to.
    fn references(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut references = BTreeMap::new();
        for (module, code) in &self.modules {
            let found: &mut BTreeSet<ModPath> = references.entry(module.clone()).or_default();
            for path in paths_in(code) {
                let mut segments: Vec<&str> = path.split("::").collect();
                let mut base = match segments[0] {
                    "crate" | "$crate" => Vec::new(),
                    "self" => module.clone(),
                    "super" => module.clone(),
                    _ => continue,
                };
                if segments[0] == "super" {
                    while segments.first() == Some(&"super") {
                        base.pop();
                        segments.remove(0);
                    }
                } else {
                    segments.remove(0);
                }
                found.insert(self.resolve(base, &segments));
            }
        }
        references
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// `source` without comments, string literals and character literals (each left as a
/// space), so that only code is searched.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut code = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        if rest.starts_with(&['/', '/']) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if rest.starts_with(&['/', '*']) {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i..].starts_with(&['/', '*']) {
                    depth += 1;
                    i += 2;
                } else if chars[i..].starts_with(&['*', '/']) {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if rest[0] == 'r' && (rest.get(1) == Some(&'"') || rest.get(1) == Some(&'#')) && !ident_before(&chars, i)
        {
            // A raw string: r"…", r#"…"#, …
            let hashes = rest[1..].iter().take_while(|c| **c == '#').count();
            if rest.get(1 + hashes) != Some(&'"') {
                code.push(chars[i]);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            while i < chars.len() && !(chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|c| *c == '#')) {
                i += 1;
            }
            i += 1 + hashes;
            code.push(' ');
        } else if rest[0] == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            code.push(' ');
        } else if rest[0] == '\'' && (rest.get(2) == Some(&'\'') || rest.get(1) == Some(&'\\')) {
            // A character literal (not a lifetime): 'x' or '\n', '\u{..}'.
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            code.push(' ');
        } else {
            code.push(chars[i]);
            i += 1;
        }
    }
    code
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// Every path in `code` that starts at `crate`, `$crate`, `super` or `self`, with the
/// trees of `use` declarations expanded (`use super::{a::B, c};` gives `super::a::B` and
/// `super::c`).
fn paths_in(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !is_ident(bytes[i - 1]);
        if starts_word && code[i..].starts_with("use ") {
            let end = code[i..].find(';').map_or(code.len(), |n| i + n);
            expand_use_tree("", code[i + 4..end].trim(), &mut paths);
            i = end;
            continue;
        }
        if starts_word
            && ["crate::", "$crate::", "super::", "self::"]
                .iter()
                .any(|p| code[i..].starts_with(p))
        {
            let end = code[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '$'))
                .map_or(code.len(), |n| i + n);
            paths.push(code[i..end].trim_end_matches(':').to_owned());
            i = end;
            continue;
        }
        i += 1;
    }
    paths
}

/// Adds the paths of one use tree, each prefixed by `prefix`.
fn expand_use_tree(prefix: &str, tree: &str, paths: &mut Vec<String>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    match tree.find('{') {
        Some(open) => {
            let head = tree[..open].trim().trim_end_matches("::");
            let inner = &tree[open + 1..tree.rfind('}').unwrap()];
            let prefix = join(prefix, head);
            let mut depth = 0;
            let mut start = 0;
            for (n, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_use_tree(&prefix, &inner[start..n], paths);
                        start = n + 1;
                    }
                    _ => {}
                }
            }
            expand_use_tree(&prefix, &inner[start..], paths);
        }
        None => {
            let path = tree.split(" as ").next().unwrap().trim();
            let path = if path == "self" {
                prefix.to_owned()
            } else {
                join(prefix, path)
            };
            paths.push(path.trim_end_matches("::*").to_owned());
        }
    }
}

fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.to_owned(),
        (_, true) => prefix.to_owned(),
        _ => format!("{prefix}::{path}"),
    }
}

/// The dependencies between siblings: a reference from `a` to `b` makes the child of their
/// nearest common ancestor on `a`'s side depend on the one on `b`'s side. A module and its
/// own descendants are not siblings.
fn sibling_edges(references: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> BTreeMap<ModPath, BTreeSet<(String, String)>> {
    let mut groups: BTreeMap<ModPath, BTreeSet<(String, String)>> = BTreeMap::new();
    for (from, targets) in references {
        for to in targets {
            let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue;
            }
            groups
                .entry(from[..common].to_vec())
                .or_default()
                .insert((from[common].clone(), to[common].clone()));
        }
    }
    groups
}

/// The circles in `edges`: each set of modules that all reach one another, with more than
/// one module in it.
fn find_circles(edges: &BTreeSet<(String, String)>) -> Vec<BTreeSet<String>> {
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut next = vec![start.to_owned()];
        while let Some(node) = next.pop() {
            for (_, to) in edges.iter().filter(|(from, _)| *from == node) {
                if seen.insert(to.clone()) {
                    next.push(to.clone());
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<&String> = edges.iter().map(|(from, _)| from).collect();
    let reachable: BTreeMap<&String, BTreeSet<String>> = nodes.iter().map(|node| (*node, reach(node))).collect();
    let mut circles: Vec<BTreeSet<String>> = Vec::new();
    for node in &nodes {
        let circle: BTreeSet<String> = reachable[node]
            .iter()
            .filter(|other| reachable.get(other).is_some_and(|back| back.contains(*node)))
            .cloned()
            .collect();
        if circle.len() > 1 && !circles.contains(&circle) {
            circles.push(circle);
        }
    }
    circles
}

#[test]
fn no_two_modules_import_each_other() {
    let sources = Sources::read();
    assert!(sources.modules.len() > 50, "{} modules", sources.modules.len());
    let references = sources.references();
    // The scanner sees real imports: the HTTP layer reaches the store.
    assert!(references[&vec!["http".to_owned(), "claims".to_owned()]].contains(&vec!["store".to_owned()]));
    let circles: Vec<String> = sibling_edges(&references)
        .iter()
        .flat_map(|(parent, edges)| {
            find_circles(edges).into_iter().map(move |circle| {
                let circle: Vec<String> = circle.into_iter().collect();
                format!("in crate::{}: {}", parent.join("::"), circle.join(", "))
            })
        })
        .collect();
    assert!(
        circles.is_empty(),
        "modules that import each other:\n{}",
        circles.join("\n")
    );
}

#[test]
fn every_module_imports_only_what_the_architecture_document_allows() {
    let document = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md")).unwrap();
    let allowed = documented_imports(&document);
    let sources = Sources::read();
    let references = sources.references();
    let top_level: BTreeSet<String> = sources
        .modules
        .keys()
        .filter(|path| path.len() == 1)
        .map(|path| path[0].clone())
        .collect();
    for module in &top_level {
        assert!(
            allowed.contains_key(module),
            "docs/architecture.md does not describe `{module}`"
        );
    }
    let mut undocumented = Vec::new();
    for (from, targets) in &references {
        let (Some(from), false) = (from.first(), from.is_empty()) else {
            continue;
        };
        let Some(may) = &allowed[from] else { continue };
        for to in targets {
            if let Some(to) = to.first().filter(|to| *to != from)
                && !may.contains(to)
            {
                undocumented.push(format!("{from} imports {to}"));
            }
        }
    }
    undocumented.sort();
    undocumented.dedup();
    assert!(
        undocumented.is_empty(),
        "imports docs/architecture.md does not allow (its \"may import\" column):\n{}",
        undocumented.join("\n")
    );
}

/// The module table of the architecture document: each top-level module and the modules it
/// may import (`None`: any).
fn documented_imports(document: &str) -> BTreeMap<String, Option<BTreeSet<String>>> {
    let mut allowed = BTreeMap::new();
    for row in document.lines().filter(|line| line.starts_with("| `")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let (names, may) = (cells[0], cells[cells.len() - 1]);
        let may = if may.contains("everything") {
            None
        } else {
            Some(backticked(may).into_iter().collect())
        };
        for name in backticked(names) {
            let module = name.trim_end_matches(".rs").trim_end_matches('/').to_owned();
            allowed.insert(module, may.clone());
        }
    }
    allowed
}

fn backticked(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

#[test]
fn the_scanner_leaves_out_comments_and_strings_and_expands_use_trees() {
    let code =
        code_only("use super::{a::{B, c}, d as e}; // crate::x\nlet s = \"crate::y\"; let c = '\"'; crate::z::w();");
    assert_eq!(
        paths_in(&code),
        ["super::a::B", "super::a::c", "super::d", "crate::z::w"]
    );
}

/// What deciding a permission looks like in code, with spaces taken out: a role compared or
/// matched, or the administrator's flag read.
const ROLE_TESTS: [&str; 11] = [
    ".role==",
    ".role!=",
    "==Role::",
    "!=Role::",
    "==Some(Role::",
    "!=Some(Role::",
    "Role::Member=>",
    "Role::Staff=>",
    "Role::Administrator=>",
    ".role,Role::",
    "letRole::",
];

#[test]
fn only_the_access_module_decides_permissions() {
    let sources = Sources::read();
    let access = ["domain".to_owned(), "access".to_owned()];
    let mut deciding = Vec::new();
    for (module, code) in &sources.modules {
        if module[..] == access {
            continue;
        }
        let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        for test in ROLE_TESTS.iter().filter(|test| compact.contains(*test)) {
            deciding.push(format!("{} tests a role: `{test}`", module.join("::")));
        }
        // The accounts table's column is the store's to turn into a `Role`.
        let reads_flag = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| word == "is_admin");
        if reads_flag && module.first().map(String::as_str) != Some("store") {
            deciding.push(format!("{} reads `is_admin`", module.join("::")));
        }
    }
    assert!(
        deciding.is_empty(),
        "permissions are decided by `domain::access::may` alone:\n{}",
        deciding.join("\n")
    );
}
