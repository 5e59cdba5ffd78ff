//! `wedge install`: the one step that gives a GUI a working engine. It copies this executable
//! to `PREFIX/bin` and the shipped weights and book to `PREFIX/share/wedge`, where the
//! installed executable finds them (see [`wedge_core::paths`]); each file is checked, written
//! atomically and checked again where it lies.

use clap::Args;
use std::path::{Path, PathBuf};
use wedge_core::book::{Book, Verify};
use wedge_core::eval::Weights;
use wedge_core::paths::{data_roots, write_atomic, write_atomic_executable, INSTALLED_DATA};
use wedge_core::search::ProbCutModel;

#[derive(Args)]
pub struct InstallArgs {
    /// Install under this prefix: the executable in PREFIX/bin, the weights and book in
    /// PREFIX/share/wedge (default: ~/.local).
    #[arg(long)]
    pub prefix: Option<PathBuf>,
}

/// Why an install failed; the step and the file are named.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("no --prefix given and $HOME is not set")]
    NoPrefix,
    #[error("cannot tell where this executable is: {0}")]
    NoExecutable(std::io::Error),
    #[error(
        "no folder holds all of the shipped {0} (run `wedge install` from the build of a \
         source tree, or set WEDGE_HOME to the folder holding weights/ and books/)"
    )]
    MissingData(String),
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create {}: {source}", .path.display())]
    Directory {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a valid {what}: {reason}", .path.display())]
    Invalid {
        path: PathBuf,
        what: &'static str,
        reason: String,
    },
}

/// A shipped data file: its folder and name under the data root, and how to check it.
struct DataFile {
    dir: &'static str,
    name: &'static str,
    kind: Kind,
}

#[derive(Clone, Copy)]
enum Kind {
    Weights,
    ProbCut,
    Book,
}

/// What a GUI's engine reads: play's and the solver's weights with their ProbCut models, and
/// the book.
const DATA_FILES: [DataFile; 5] = [
    DataFile {
        dir: "weights",
        name: "default.wts",
        kind: Kind::Weights,
    },
    DataFile {
        dir: "weights",
        name: "default.probcut",
        kind: Kind::ProbCut,
    },
    DataFile {
        dir: "weights",
        name: "solver.wts",
        kind: Kind::Weights,
    },
    DataFile {
        dir: "weights",
        name: "solver.probcut",
        kind: Kind::ProbCut,
    },
    DataFile {
        dir: "books",
        name: "default.book",
        kind: Kind::Book,
    },
];

/// Checks that `path` holds a valid file of `kind`.
fn check(path: &Path, kind: Kind) -> Result<(), InstallError> {
    let invalid = |what, reason: String| InstallError::Invalid {
        path: path.to_path_buf(),
        what,
        reason,
    };
    match kind {
        Kind::Weights => Weights::load(path)
            .map(drop)
            .map_err(|e| invalid("weights file", e.to_string())),
        Kind::ProbCut => ProbCutModel::load(path)
            .map(drop)
            .map_err(|e| invalid("ProbCut model", e.to_string())),
        Kind::Book => Book::open(path, Verify::Full)
            .map(drop)
            .map_err(|e| invalid("book", e.to_string())),
    }
}

/// Copies `from` to `to` atomically (unless they are one file), executable or not.
fn copy(from: &Path, to: &Path, executable: bool) -> Result<(), InstallError> {
    if std::fs::canonicalize(from).ok() == std::fs::canonicalize(to).ok() {
        return Ok(());
    }
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|source| InstallError::Directory {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let bytes = std::fs::read(from).map_err(|source| InstallError::Read {
        path: from.to_path_buf(),
        source,
    })?;
    let write = if executable {
        write_atomic_executable
    } else {
        write_atomic
    };
    write(to, &bytes).map_err(|source| InstallError::Write {
        path: to.to_path_buf(),
        source,
    })
}

/// Installs under `prefix`; returns the lines to print (what was installed, and the commands
/// to give a GUI).
pub fn install(prefix: &Path) -> Result<Vec<String>, InstallError> {
    let exe = std::env::current_exe().map_err(InstallError::NoExecutable)?;
    // Every source comes from one folder, and is checked before anything is written.
    let rel = |f: &DataFile| Path::new(f.dir).join(f.name);
    let root = data_roots()
        .into_iter()
        .find(|r| DATA_FILES.iter().all(|f| r.join(rel(f)).is_file()))
        .ok_or_else(|| {
            let names: Vec<String> = DATA_FILES
                .iter()
                .map(|f| rel(f).display().to_string())
                .collect();
            InstallError::MissingData(names.join(", "))
        })?;
    let mut sources = Vec::new();
    for f in &DATA_FILES {
        let from = root.join(rel(f));
        check(&from, f.kind)?;
        sources.push(from);
    }
    let mut lines = Vec::new();
    let bin = prefix.join("bin").join("wedge");
    copy(&exe, &bin, true)?;
    lines.push(format!("installed {}", bin.display()));
    let data = prefix.join(INSTALLED_DATA);
    for (f, from) in DATA_FILES.iter().zip(&sources) {
        let to = data.join(f.dir).join(f.name);
        copy(from, &to, false)?;
        check(&to, f.kind)?;
        lines.push(format!("installed {}", to.display()));
    }
    let bin = bin.display();
    lines.push(format!(
        "NBoard (Engines > add): {bin} --hash 64 nboard\n\
         GoGui, Quarry, gogui-twogtp: {bin} --hash 64 gtp"
    ));
    Ok(lines)
}

/// `wedge install`.
pub fn run(args: &InstallArgs) -> Result<(), InstallError> {
    let prefix = match &args.prefix {
        Some(p) => p.clone(),
        None => std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(|h| PathBuf::from(h).join(".local"))
            .ok_or(InstallError::NoPrefix)?,
    };
    for line in install(&prefix)? {
        println!("{line}");
    }
    Ok(())
}
