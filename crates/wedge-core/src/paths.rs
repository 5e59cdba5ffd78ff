//! Where shipped data files are found (`weights/`, `books/` under `$WEDGE_HOME`, beside the
//! executable, in `../share/wedge` from it, in the source tree, or in the user's data
//! directory, where `wedge install` puts them), where the user's own files go (the XDG data
//! directory), how every file we write is written (atomically), and how every file we read is
//! checked first: a regular file (a directory for a directory of files), never a FIFO or a
//! device, whose opening or reading would block or never end.

use std::fs::{File, Metadata};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What a path names, as far as reading it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    RegularFile,
    Directory,
    Fifo,
    CharDevice,
    BlockDevice,
    Socket,
    Other,
}

impl FileKind {
    /// The kind of `t` (from metadata that followed symbolic links).
    pub fn of(t: std::fs::FileType) -> FileKind {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_fifo() {
                return FileKind::Fifo;
            } else if t.is_char_device() {
                return FileKind::CharDevice;
            } else if t.is_block_device() {
                return FileKind::BlockDevice;
            } else if t.is_socket() {
                return FileKind::Socket;
            }
        }
        if t.is_file() {
            FileKind::RegularFile
        } else if t.is_dir() {
            FileKind::Directory
        } else {
            FileKind::Other
        }
    }
}

impl std::fmt::Display for FileKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileKind::RegularFile => "a regular file",
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Socket => "a socket",
            FileKind::Other => "a file of an unknown kind",
        })
    }
}

/// A path to read that names something else than what is read there. The I/O errors of the
/// readers below carry it, so every error that names the path says what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("it is {found}, not {wanted}")]
pub struct WrongKind {
    pub found: FileKind,
    pub wanted: FileKind,
}

impl WrongKind {
    /// The [`WrongKind`] an I/O error carries, if it is one.
    pub fn of(e: &io::Error) -> Option<&WrongKind> {
        e.get_ref()?.downcast_ref()
    }
}

/// The metadata of `path` (symbolic links followed) when it is `wanted`, else an
/// `InvalidInput` error carrying a [`WrongKind`]. Nothing is opened.
pub fn expect_kind(path: &Path, wanted: FileKind) -> io::Result<Metadata> {
    let meta = std::fs::metadata(path)?;
    let found = FileKind::of(meta.file_type());
    if found == wanted {
        Ok(meta)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            WrongKind { found, wanted },
        ))
    }
}

/// [`expect_kind`] for a file to read: checked before it is opened, since opening a FIFO
/// blocks until a writer comes and reading a device may never end.
pub fn regular_file(path: &Path) -> io::Result<Metadata> {
    expect_kind(path, FileKind::RegularFile)
}

/// [`expect_kind`] for a directory of files to read.
pub fn directory(path: &Path) -> io::Result<Metadata> {
    expect_kind(path, FileKind::Directory)
}

/// Opens the regular file `path` for reading ([`regular_file`]).
pub fn open_file(path: &Path) -> io::Result<File> {
    regular_file(path)?;
    File::open(path)
}

/// The bytes of the regular file `path` ([`regular_file`]).
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    regular_file(path)?;
    std::fs::read(path)
}

/// The text of the regular file `path` ([`regular_file`]).
pub fn read_text(path: &Path) -> io::Result<String> {
    regular_file(path)?;
    std::fs::read_to_string(path)
}

/// The first existing `dir/name` under `$WEDGE_HOME`, beside the executable, in
/// `../share/wedge` from it (an installed layout), two and three levels up from it (for
/// `target/release/wedge` in a source tree), in the user's data directory, then in this
/// source tree.
pub fn find_data_file(dir: &str, name: &str) -> Option<PathBuf> {
    data_file_locations(dir, name).into_iter().next()
}

/// Every existing `dir/name` where [`find_data_file`] looks, in its order (the shipped copies
/// that play must never write).
pub fn data_file_locations(dir: &str, name: &str) -> Vec<PathBuf> {
    let rel = Path::new(dir).join(name);
    data_roots()
        .into_iter()
        .map(|root| root.join(&rel))
        .filter(|p| p.is_file())
        .collect()
}

/// The folders [`find_data_file`] looks in (each holding `weights/` and `books/`), in order.
pub fn data_roots() -> Vec<PathBuf> {
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf));
    let home = std::env::var_os("WEDGE_HOME").map(PathBuf::from);
    data_roots_from(
        home.as_deref(),
        exe_dir.as_deref(),
        user_data_dir().as_deref(),
    )
}

/// Where [`find_data_file`] looks, in order: an explicit `$WEDGE_HOME` wins over the places
/// found from the executable, then the user's data directory, and the source tree the binary
/// was built from comes last.
fn data_roots_from(
    home: Option<&Path>,
    exe_dir: Option<&Path>,
    user_data: Option<&Path>,
) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(home) = home {
        roots.push(home.to_path_buf());
    }
    if let Some(exe_dir) = exe_dir {
        roots.push(exe_dir.to_path_buf());
        if let Some(prefix) = exe_dir.parent() {
            roots.push(prefix.join(INSTALLED_DATA));
        }
        let mut up = exe_dir.parent().and_then(Path::parent);
        for _ in 0..2 {
            if let Some(u) = up {
                roots.push(u.to_path_buf());
                up = u.parent();
            }
        }
    }
    if let Some(user_data) = user_data {
        roots.push(user_data.to_path_buf());
    }
    roots.push(source_tree());
    roots
}

/// The source tree this was built from: the workspace root, two folders above this crate's.
pub fn source_tree() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .ancestors()
        .nth(2)
        .unwrap_or(crate_dir)
        .to_path_buf()
}

/// Where an installed layout keeps the shipped data, from the prefix that holds `bin/wedge`.
pub const INSTALLED_DATA: &str = "share/wedge";

/// Wedge's directory for the user's own data (the XDG base directory rule):
/// `$XDG_DATA_HOME/wedge` when that is an absolute path, else `$HOME/.local/share/wedge`.
pub fn user_data_dir() -> Option<PathBuf> {
    user_data_dir_from(
        std::env::var_os("XDG_DATA_HOME").as_deref().map(Path::new),
        std::env::var_os("HOME").as_deref().map(Path::new),
    )
}

fn user_data_dir_from(xdg_data_home: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    // The specification says relative values are to be ignored.
    match xdg_data_home.filter(|p| p.is_absolute()) {
        Some(xdg) => Some(xdg.join("wedge")),
        None => home
            .filter(|h| !h.as_os_str().is_empty())
            .map(|h| h.join(".local/share/wedge")),
    }
}

/// The user's book of learned games: `learned.book` in [`user_data_dir`].
pub fn default_user_book() -> Option<PathBuf> {
    user_data_dir().map(|d| d.join("learned.book"))
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, rename, then a
/// best-effort sync of the directory. Readers see the old file or the new one, never a mix.
/// Temporary files of `path` left by writers that died (killed mid-write) are removed. A
/// `path` that is there and no regular file (a device such as `/dev/null`, a FIFO, a
/// directory) is refused with a [`WrongKind`], never replaced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, false)
}

/// As [`write_atomic`], the file made executable (mode 755 on Unix) before it is renamed into
/// place.
pub fn write_atomic_executable(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, true)
}

fn write_atomic_with(path: &Path, bytes: &[u8], executable: bool) -> std::io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        let found = FileKind::of(meta.file_type());
        if found != FileKind::RegularFile {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                WrongKind {
                    found,
                    wanted: FileKind::RegularFile,
                },
            ));
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    remove_stale_temporaries(&dir, &name);
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        #[cfg(unix)]
        if executable {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(std::fs::Permissions::from_mode(0o755))?;
        }
        #[cfg(not(unix))]
        let _ = executable;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Removes `.NAME.tmp.PID` files in `dir` whose process no longer runs (best effort: a
/// file that cannot be removed stays).
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.tmp.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && process_is_gone(pid) {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => tracing::info!(
                    "removed {}, left by process {pid} which no longer runs",
                    entry.path().display()
                ),
                Err(e) => tracing::debug!("cannot remove {}: {e}", entry.path().display()),
            }
        }
    }
}

/// True when no process `pid` runs. Where that cannot be told (no `/proc`), a process is
/// taken to be running, so nothing of a live writer is ever removed.
fn process_is_gone(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new folder `NAME-PID` in the temporary directory holding a FIFO named `fifo`.
    #[cfg(unix)]
    fn folder_with_fifo(name: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success(), "mkfifo");
        (dir, fifo)
    }

    #[cfg(unix)]
    #[test]
    fn only_what_is_asked_for_is_read_and_the_rest_is_named() {
        let (dir, fifo) = folder_with_fifo("wedge-kinds");
        let file = dir.join("file.txt");
        std::fs::write(&file, "text").unwrap();
        assert_eq!(read_text(&file).unwrap(), "text");
        assert_eq!(read_file(&file).unwrap(), b"text");
        assert!(directory(&dir).is_ok());
        let wrong = |e: io::Error| {
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
            (*WrongKind::of(&e).expect("a WrongKind"), e.to_string())
        };
        // The FIFO is refused without being opened (opening it would block: no writer).
        let (kind, text) = wrong(read_file(&fifo).unwrap_err());
        assert_eq!(kind.found, FileKind::Fifo);
        assert_eq!(text, "it is a FIFO (named pipe), not a regular file");
        let (_, text) = wrong(open_file(&dir).unwrap_err());
        assert_eq!(text, "it is a directory, not a regular file");
        let (_, text) = wrong(read_text(Path::new("/dev/zero")).unwrap_err());
        assert_eq!(text, "it is a character device, not a regular file");
        let (_, text) = wrong(directory(&file).unwrap_err());
        assert_eq!(text, "it is a regular file, not a directory");
        let missing = read_file(&dir.join("missing")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert!(WrongKind::of(&missing).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("wedge-paths-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x.txt");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(write_atomic(&dir.join("missing/sub/y"), b"z").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A device (`save /dev/null` in the console, as root) or a FIFO would be replaced by the
    /// rename; the write is refused, names what is there, and leaves it as it was.
    #[cfg(unix)]
    #[test]
    fn atomic_write_refuses_to_replace_what_is_no_regular_file() {
        let (dir, fifo) = folder_with_fifo("wedge-nonfile");
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        for (target, found) in [(&fifo, FileKind::Fifo), (&sub, FileKind::Directory)] {
            let e = write_atomic(target, b"x").unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
            assert_eq!(WrongKind::of(&e).expect("a WrongKind").found, found);
            let meta = std::fs::symlink_metadata(target).unwrap();
            assert_eq!(FileKind::of(meta.file_type()), found, "left as it was");
        }
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "no temporary left: {names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn stale_temporaries_of_dead_writers_are_removed() {
        let dir = std::env::temp_dir().join(format!("wedge-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A process that has exited and been waited for; and one that runs (our parent).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let alive = std::os::unix::process::parent_id();
        let stale = dir.join(format!(".x.book.tmp.{dead}"));
        let live = dir.join(format!(".x.book.tmp.{alive}"));
        let other = dir.join(format!(".y.book.tmp.{dead}"));
        for f in [&stale, &live, &other] {
            std::fs::write(f, b"partial").unwrap();
        }
        write_atomic(&dir.join("x.book"), b"whole").unwrap();
        assert!(!stale.exists(), "the dead writer's file is removed");
        assert!(live.exists(), "a running writer's file stays");
        assert!(
            other.exists(),
            "another file's temporaries are not ours to judge"
        );
        assert_eq!(std::fs::read(dir.join("x.book")).unwrap(), b"whole");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn wedge_home_is_looked_at_first_and_the_source_tree_last() {
        let rel = Path::new("books/default.book");
        let c: Vec<PathBuf> = data_roots_from(
            Some(Path::new("/home/me/wedge")),
            Some(Path::new("/opt/w/target/release")),
            Some(Path::new("/home/me/.local/share/wedge")),
        )
        .iter()
        .map(|r| r.join(rel))
        .collect();
        let manifest = source_tree().join(rel);
        assert_eq!(
            c,
            vec![
                PathBuf::from("/home/me/wedge/books/default.book"),
                PathBuf::from("/opt/w/target/release/books/default.book"),
                PathBuf::from("/opt/w/target/share/wedge/books/default.book"),
                PathBuf::from("/opt/w/books/default.book"),
                PathBuf::from("/opt/books/default.book"),
                PathBuf::from("/home/me/.local/share/wedge/books/default.book"),
                manifest.clone(),
            ]
        );
        assert_eq!(data_roots_from(None, None, None), vec![source_tree()]);
        assert!(source_tree().join("Cargo.toml").is_file());
        assert!(source_tree().join("weights").is_dir());
    }

    #[test]
    fn the_user_data_directory_follows_xdg() {
        let home = Some(Path::new("/home/me"));
        assert_eq!(
            user_data_dir_from(Some(Path::new("/data")), home),
            Some(PathBuf::from("/data/wedge"))
        );
        // A relative XDG_DATA_HOME is ignored, as the specification asks.
        assert_eq!(
            user_data_dir_from(Some(Path::new("rel")), home),
            Some(PathBuf::from("/home/me/.local/share/wedge"))
        );
        assert_eq!(
            user_data_dir_from(None, home),
            Some(PathBuf::from("/home/me/.local/share/wedge"))
        );
        assert_eq!(user_data_dir_from(None, Some(Path::new(""))), None);
        assert_eq!(user_data_dir_from(None, None), None);
    }

    #[test]
    fn finds_files_of_the_source_tree() {
        assert!(find_data_file("weights", "README.md").is_some());
        assert!(find_data_file("weights", "no-such-file").is_none());
    }
}
