//! Tests for the golden runner using a fake CLI (the real one is not needed).

use super::*;

/// A stand-in for `ferro_cli::run` with a few commands that exercise the runner.
fn fake_cli(args: &[String], cwd: &Path, io: &mut ferro_cli::Io<'_>) -> i32 {
    match args.first().map(String::as_str) {
        Some("echo") => {
            let _ = writeln!(io.stdout, "{}", args[1..].join("|"));
            0
        }
        Some("fail") => {
            let _ = write!(io.stdout, "partial");
            let _ = write!(io.stderr, "Error: boom   \r\n");
            1
        }
        Some("touch") => {
            let _ = fs::write(cwd.join(&args[1]), "made\n");
            let _ = writeln!(io.stdout, "wrote {}", cwd.join(&args[1]).display());
            let _ = writeln!(io.stdout, "lineage 3a8b0a61-6a2f-2c2e-1e6a-0f0e6a4b7c11");
            0
        }
        Some("ls") => {
            let mut names: Vec<String> = fs::read_dir(cwd)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            let _ = writeln!(io.stdout, "{}", names.join(" "));
            0
        }
        Some("panic") => panic!("fake CLI panic"),
        _ => {
            let _ = writeln!(io.stderr, "unknown");
            2
        }
    }
}

#[test]
fn splits_args_with_quotes() {
    assert_eq!(
        split_args("ferro plan  -out=x").unwrap(),
        vec!["ferro", "plan", "-out=x"]
    );
    assert_eq!(
        split_args(r#"ferro apply -var "a=b c" -var="x \"y\" \\ z" "" end"#).unwrap(),
        vec![
            "ferro",
            "apply",
            "-var",
            "a=b c",
            "-var=x \"y\" \\ z",
            "",
            "end"
        ]
    );
    assert_eq!(split_args(r#"a "b\n""#).unwrap(), vec!["a", "b\\n"]);
    assert!(split_args(r#"ferro "unterminated"#).is_err());
    assert!(split_args("").unwrap().is_empty());
}

#[test]
fn parses_scripts() {
    let script = "# a comment\n\nferro init\r\ncp a.tf b.tf\nrm  b.tf\nwrite sub/x.tf <<EOF\nline 1\n  indented\n\nEOF\ncat x.tf\nwrite empty <<END\nEND\n";
    let steps = parse_script(script).unwrap();
    let got: Vec<(usize, Step)> = steps.into_iter().map(|s| (s.line, s.step)).collect();
    assert_eq!(
        got,
        vec![
            (
                3,
                Step::Ferro {
                    line: "ferro init".into(),
                    args: vec!["init".into()],
                    stdin: None
                }
            ),
            (
                4,
                Step::Cp {
                    src: "a.tf".into(),
                    dst: "b.tf".into()
                }
            ),
            (
                5,
                Step::Rm {
                    path: "b.tf".into()
                }
            ),
            (
                6,
                Step::Write {
                    path: "sub/x.tf".into(),
                    content: "line 1\n  indented\n\n".into()
                }
            ),
            (
                11,
                Step::Cat {
                    path: "x.tf".into()
                }
            ),
            (
                12,
                Step::Write {
                    path: "empty".into(),
                    content: String::new()
                }
            ),
        ]
    );
}

#[test]
fn script_errors_name_the_line() {
    assert_eq!(
        parse_script("ferro init\nmv a b\n").unwrap_err(),
        "line 2: unknown command \"mv\" (expected ferro, cp, rm, write, cat or a # comment)"
    );
    assert!(parse_script("cp a\n")
        .unwrap_err()
        .starts_with("line 1: usage: cp"));
    assert!(parse_script("write x <<EOF\nabc\n")
        .unwrap_err()
        .contains("no closing \"EOF\""));
    assert!(parse_script("write x\n")
        .unwrap_err()
        .starts_with("line 1: usage: write"));
    assert!(parse_script("ferro \"x\n")
        .unwrap_err()
        .contains("unterminated"));
}

#[test]
fn normalizes_transcripts() {
    let tmp = Path::new("/tmp/ferro-golden-1-2");
    let raw = "a /tmp/ferro-golden-1-2/x  \r\nid 3A8B0A61-6a2f-2c2e-1e6a-0f0e6a4b7c11.\nno x3a8b0a61-6a2f-2c2e-1e6a-0f0e6a4b7c11\nno 3a8b0a61-6a2f-2c2e-1e6a-0f0e6a4b7c\n\n\n";
    assert_eq!(
        normalize(raw, Some(tmp)),
        "a <tmp>/x\nid <uuid>.\nno x3a8b0a61-6a2f-2c2e-1e6a-0f0e6a4b7c11\nno 3a8b0a61-6a2f-2c2e-1e6a-0f0e6a4b7c\n"
    );
    assert_eq!(normalize("", None), "");
    assert_eq!(normalize("\n\n", None), "");
    assert_eq!(normalize("x", None), "x\n");
    assert_eq!(
        replace_uuids(
            "[\"00000000-0000-0000-0000-000000000000\",\"ffffffff-ffff-ffff-ffff-ffffffffffff\"]"
        ),
        "[\"<uuid>\",\"<uuid>\"]"
    );
    assert_eq!(
        replace_uuids("é 00000000-0000-0000-0000-000000000000 é"),
        "é <uuid> é"
    );
    assert_eq!(
        normalize(
            "{\"@level\":\"info\",\"@timestamp\":\"2026-12-07T15:28:40.123456Z\",\"x\":\"@timestamp\"}",
            None
        ),
        "{\"@level\":\"info\",\"@timestamp\":\"<timestamp>\",\"x\":\"@timestamp\"}\n"
    );
}

#[test]
fn diffs_are_unified() {
    assert_eq!(diff("a\nb\n", "a\nb\n", "x", "y"), "");
    let expected = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n";
    let actual = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n15\n16\n";
    assert_eq!(
        diff(expected, actual, "case/expected.txt", "actual"),
        "--- case/expected.txt\n+++ actual\n\
         @@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n\
         @@ -11,5 +11,5 @@\n 11\n 12\n 13\n-14\n 15\n+16\n"
    );
    // Nearby changes share a hunk; additions into an empty text.
    assert_eq!(
        diff("a\nb\nc\n", "a\nB\nc\nd\n", "e", "a"),
        "--- e\n+++ a\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n"
    );
    assert_eq!(
        diff("", "x\n", "e", "a"),
        "--- e\n+++ a\n@@ -0,0 +1,1 @@\n+x\n"
    );
    assert_eq!(
        diff("x\n", "", "e", "a"),
        "--- e\n+++ a\n@@ -1,1 +0,0 @@\n-x\n"
    );
}

/// A throwaway testdata tree with one case.
fn make_case(root: &Path, name: &str, script: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(SCRIPT), script).unwrap();
    for (f, content) in files {
        fs::write(dir.join(f), content).unwrap();
    }
    dir
}

const SCRIPT_OK: &str = "\
# exercise every command
ferro echo \"a b\" c
ferro fail
cp main.tf copy.tf
write sub/new.txt <<EOF
hello
EOF
ferro touch made.txt
ferro ls
cat made.txt
rm copy.tf
cat copy.tf
cat sub/new.txt
";

const EXPECTED_OK: &str = "\
$ ferro echo \"a b\" c
a b|c
[exit 0]

$ ferro fail
partial
--- stderr
Error: boom
[exit 1]

$ cp main.tf copy.tf
$ write sub/new.txt
$ ferro touch made.txt
wrote <tmp>/made.txt
lineage <uuid>
[exit 0]

$ ferro ls
copy.tf made.txt main.tf sub
[exit 0]

$ cat made.txt
made

$ rm copy.tf
$ cat copy.tf
cat: copy.tf: No such file or directory

$ cat sub/new.txt
hello
";

#[test]
fn runs_blesses_and_diffs_cases() {
    let root = TempDir::new("unit-root").unwrap();
    let dir = make_case(
        root.path(),
        "area/ok",
        SCRIPT_OK,
        &[("main.tf", "# config\n")],
    );
    make_case(root.path(), "area/other", "ferro echo x\n", &[]);
    make_case(
        root.path(),
        "zone/panics",
        "ferro echo before\nferro panic\n",
        &[],
    );

    let cases = discover(root.path(), None).unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["area/ok", "area/other", "zone/panics"]);
    assert_eq!(discover(root.path(), Some("a/o")).unwrap().len(), 2);
    assert_eq!(
        discover(&root.path().join("missing"), None).unwrap().len(),
        0
    );

    // Missing expected.txt fails and shows the transcript.
    let s = run_all(root.path(), Some("area/ok"), fake_cli, false, 2).unwrap();
    assert_eq!((s.passed, s.failures.len()), (0, 1));
    assert!(
        s.failures[0].1.contains("no expected.txt"),
        "{}",
        s.failures[0].1
    );

    // Blessing records it; the copied case files are untouched.
    let s = run_all(root.path(), Some("area/"), fake_cli, true, 2).unwrap();
    assert_eq!(
        (s.passed, s.blessed, s.failures.len()),
        (2, 2, 0),
        "{}",
        s.report()
    );
    assert_eq!(fs::read_to_string(dir.join(EXPECTED)).unwrap(), EXPECTED_OK);
    assert!(!dir.join("made.txt").exists() && !dir.join("copy.tf").exists());

    // Now it passes, on two threads, and the panicking case fails cleanly.
    let s = run_all(root.path(), None, fake_cli, false, 2).unwrap();
    assert_eq!(s.passed, 2, "{}", s.report());
    assert_eq!(s.failures.len(), 1);
    assert_eq!(s.failures[0].0, "zone/panics");
    assert!(
        s.failures[0]
            .1
            .contains("test.txt line 2: ferro panicked: fake CLI panic"),
        "{}",
        s.failures[0].1
    );
    assert!(
        s.report().ends_with("2 passed, 1 failed\n"),
        "{}",
        s.report()
    );

    // A changed expectation produces a readable diff naming the case.
    fs::write(dir.join(EXPECTED), EXPECTED_OK.replace("a b|c", "a b|d")).unwrap();
    let s = run_all(root.path(), Some("area/ok"), fake_cli, false, 1).unwrap();
    let msg = &s.failures[0].1;
    assert!(msg.contains("--- area/ok/expected.txt\n+++ actual\n@@ -1,5 +1,5 @@\n $ ferro echo \"a b\" c\n-a b|d\n+a b|c\n [exit 0]\n \n $ ferro fail\n"), "{msg}");
    assert!(s.report().starts_with("FAIL area/ok\n"));

    // CRLF and trailing spaces in expected.txt do not matter.
    fs::write(dir.join(EXPECTED), EXPECTED_OK.replace('\n', "  \r\n")).unwrap();
    assert_eq!(run_case(&cases[0], fake_cli, false), Outcome::Passed);
}

#[test]
fn file_steps_stay_inside_the_case() {
    let root = TempDir::new("unit-escape").unwrap();
    make_case(root.path(), "a/b", "cat ../x\n", &[]);
    let s = run_all(root.path(), None, fake_cli, true, 1).unwrap();
    assert!(
        s.failures[0].1.contains("must be relative"),
        "{}",
        s.report()
    );
    make_case(root.path(), "a/c", "rm nothing\n", &[]);
    let s = run_all(root.path(), Some("a/c"), fake_cli, true, 1).unwrap();
    assert!(
        s.failures[0].1.contains("test.txt line 1: rm nothing"),
        "{}",
        s.report()
    );
}
