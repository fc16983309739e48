//! The source layer's errors: an input that cannot be used at all ([`SourceError`]), and a
//! file or stream that cannot be read ([`ReadError`], which becomes a diagnostic naming the
//! file while the rest of the input is read).

/// Why bytes could not be read or decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// An I/O or decoder error, described for a person (`truncated data …`).
    #[error("{0}")]
    Io(String),
    /// More than a size bound came out; `flag` is the option that raises it.
    #[error("more than {cap} bytes after decompression (cap reached; raise {flag})")]
    TooLarge { cap: u64, flag: &'static str },
    /// A format mglint recognises but does not read.
    #[error("{0} data is not supported yet")]
    Unsupported(&'static str),
    /// A compression or archive format mglint does not read, named from its magic bytes.
    #[error("unsupported format: {0}")]
    UnsupportedFormat(&'static str),
}

impl ReadError {
    /// An I/O error described for a person.
    pub fn io(e: &std::io::Error) -> Self {
        ReadError::Io(super::sniff::describe_io(e))
    }
}

/// Why an input the user named cannot be used at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error("`{input}`: no such file or directory")]
    NotFound { input: String },
    #[error("`{input}`: {reason}")]
    Unreadable { input: String, reason: ReadError },
    #[error("`{input}`: {what} archives are not supported yet")]
    UnsupportedArchive { input: String, what: &'static str },
    #[error(
        "`{input}`: not a must-gather, CI artifact directory, archive, or known file (ClusterVersion/ClusterOperator/Node/MachineConfigPool/Event YAML or JSON, CVO log, interval JSON, test log, JUnit XML)"
    )]
    NotRecognised { input: String },
    #[error("standard input (`-`) is a terminal: pipe a file or archive into mglint")]
    StdinIsTerminal,
    #[error("`{input}`: not a regular file or directory")]
    NotRegular { input: String },
}
