//! The library's modules stand in one order, each using only those below it: a module that
//! reaches up (or a new module not placed in the order) fails this test.
//!
//! The order (lowest first) is the one the README's "Layout" section draws.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Lowest first. A module may use any module listed before it, never one after it.
const ORDER: &[&str] = &[
    "clock",
    "morph",
    "telemetry",
    "domain",
    "i18n",
    "extract",
    "config",
    "store",
    "llm",
    "app",
    "render",
    "ingest",
    "context",
    "answer",
    "digest",
    "refine",
    "schedule",
    "export",
    "import",
    "http",
    "bot",
    "sandbox",
    "replay",
    "cli",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file under `src/` belongs to (`src/store/goals.rs` → `store`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The modules a source text names by `crate::name`, and inside `use crate::{a, b::c}`;
/// comments are not code and are left out.
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                for part in group.split([',', '}']) {
                    let name: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.insert(name);
                    }
                    if part.contains('}') {
                        break;
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn the_uses_parser_reads_paths_and_groups_and_skips_comments() {
    let found = uses(
        "use crate::store::Store;\nuse crate::{app::App, render};\n// crate::cli\nlet x = crate::domain::Lang::Ru; // crate::bot\n",
    );
    let want: BTreeSet<String> = ["store", "app", "render", "domain"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(found, want);
}

#[test]
fn every_module_uses_only_modules_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let rank = |m: &str| ORDER.iter().position(|o| *o == m);
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "lib" || module == "main" {
            continue;
        }
        seen.insert(module.clone());
        let Some(own) = rank(&module) else {
            problems.push(format!(
                "{}: module `{module}` is not placed in the order of tests/layers.rs",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for used in uses(&text) {
            if used == module {
                continue;
            }
            match rank(&used) {
                Some(r) if r < own => {}
                Some(_) => problems.push(format!(
                    "{}: `{module}` uses `{used}`, which stands above it",
                    file.strip_prefix(&src).unwrap().display()
                )),
                None => {}
            }
        }
    }
    assert!(
        problems.is_empty(),
        "layer order broken:\n{}",
        problems.join("\n")
    );
    // The order names no module that is gone.
    for m in ORDER {
        assert!(
            seen.contains(*m),
            "tests/layers.rs orders `{m}`, which src/ no longer has"
        );
    }
}
