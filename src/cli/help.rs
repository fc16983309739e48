//! The long `--help` texts: examples, exit codes and the environment each verb reads.

/// Shown under `mglint --help`.
pub const MAIN: &str = "\
Examples:
  mglint analyze must-gather.tar.gz
  mglint analyze ./must-gather.local.123 -o report.html
  mglint analyze gs://bucket/logs/job/123 --output junit=junit_mglint.xml --output json=mglint.json
  mglint summary must-gather.tar.gz
  mglint explain CV002

Exit codes:
  0  success (no finding at or above --fail-on)
  1  a finding at or above --fail-on (batch: an input could not be analysed)
  2  usage error, or an input could not be read (batch: no input could be analysed)

Environment:
  COLUMNS             width of the human output (else the terminal's, else 100)
  NO_COLOR            no colour unless --color always (any non-empty value)
  CLICOLOR_FORCE      colour even when standard output is not a terminal (non-empty, not 0)
  TERM=dumb           no colour with --color auto
  RAYON_NUM_THREADS   worker threads when -j/--threads is not given
  XDG_CACHE_HOME      the cache of fetched CI artifacts is $XDG_CACHE_HOME/mglint
  HTTPS_PROXY, NO_PROXY  proxy for remote inputs (loopback addresses never use one)
  SSL_CERT_FILE, SSL_CERT_DIR  trusted CA certificates for remote inputs (else the system store)";

/// Shown under `mglint analyze --help`.
pub const ANALYZE: &str = "\
Examples:
  mglint analyze must-gather.tar.gz
  mglint analyze must-gather.tar.gz -o report.html          # format from the extension
  mglint analyze ci-job/ --output junit=junit_mglint.xml --output json=mglint.json
  mglint analyze must-gather.tar.gz --select CV,CO --fail-on warning

Output formats (--format, or inferred from -o's extension):
  human (.txt)  json (.json)  junit (.xml)  markdown (.md)  sarif (.sarif)  html (.html)

Exit codes:
  0  no finding at or above --fail-on (or --exit-zero)
  1  a finding at or above --fail-on
  2  usage error, or an input could not be read (a JUnit output is still written)

Environment: COLUMNS, NO_COLOR, CLICOLOR_FORCE, TERM, RAYON_NUM_THREADS, XDG_CACHE_HOME,
HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE, SSL_CERT_DIR (see `mglint --help`).";

/// Shown under `mglint batch --help`.
pub const BATCH: &str = "\
Examples:
  mglint batch --from jobs.txt -j 8 -o rows.jsonl --summary
  mglint batch --from jobs.txt --shard \"${JOB_COMPLETION_INDEX}/8\" -o rows.jsonl --resume

Exit codes:
  0  every input was analysed (and, with --fail-on, none reached it)
  1  some input could not be analysed (an `error` row), or with --fail-on a row reached it
  2  usage error, or no input could be analysed";

/// Shown under the other input-reading verbs' `--help`.
pub const INPUTS: &str = "\
Exit codes:
  0  success
  2  usage error, or an input could not be read";
