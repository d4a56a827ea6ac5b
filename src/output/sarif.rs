//! `sarif`: SARIF 2.1.0, as GitHub code scanning accepts it.
//!
//! One run whose tool driver lists every rule (stable `id` = the code, `name`,
//! short and full descriptions, `help` with the `explain` text, default
//! level); one result per diagnostic with its `ruleId`/`ruleIndex`, level,
//! message (notes and help appended), a physical location with a region, the
//! CUDA source as a related location, and `partialFingerprints`
//! (`warpscope/v1`, see [`super::fingerprints`]). Shapes come from the
//! `serde-sarif` crate, generated from the SARIF 2.1.0 schema.

use super::{fingerprints, long_message, place, FileReport, RenderOptions};
use crate::diagnostic::Severity;
use crate::lints::{rules, Level};
use crate::source::LineCol;
use serde_sarif::sarif;
use std::collections::BTreeMap;

fn level_str(l: Level) -> &'static str {
    match l {
        Level::Allow => "none",
        Level::Warn => "warning",
        Level::Deny => "error",
    }
}

fn uri_of(path: &str) -> String {
    let p = path.replace('\\', "/");
    if p.starts_with('/') {
        format!("file://{p}")
    } else {
        p.trim_start_matches("./").to_string()
    }
}

/// The region from `start` to `end` (1-based lines and columns): a result's
/// own place, and the PTX instruction as the related place of a result on
/// the CUDA source.
fn region(start: LineCol, end: LineCol) -> sarif::Region {
    sarif::Region::builder()
        .start_line(start.line as i64)
        .start_column(start.column as i64)
        .end_line(end.line as i64)
        .end_column(end.column as i64)
        .build()
}

fn related_location(path: &str, region: sarif::Region, message: &str) -> sarif::Location {
    sarif::Location::builder()
        .id(0i64)
        .physical_location(
            sarif::PhysicalLocation::builder()
                .artifact_location(sarif::ArtifactLocation::builder().uri(uri_of(path)).build())
                .region(region)
                .build(),
        )
        .message(sarif::Message::builder().text(message).build())
        .build()
}

/// The results of one file, handed to `each` one at a time.
pub(super) fn for_each_result(
    r: &FileReport<'_>,
    opts: &RenderOptions,
    mut each: impl FnMut(sarif::Result) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let index: BTreeMap<&str, usize> = rules().enumerate().map(|(i, r)| (r.code, i)).collect();
    {
        let fps = fingerprints(r.file.name(), r.file, &r.result.findings);
        for ((i, d), fp) in r.result.findings.iter().enumerate().zip(fps) {
            let at = place(r, i, opts);
            let (start, end) = (at.start, at.end);
            let cuda = r.result.findings.location(i);
            let location = sarif::Location::builder()
                .physical_location(
                    sarif::PhysicalLocation::builder()
                        .artifact_location(
                            sarif::ArtifactLocation::builder()
                                .uri(uri_of(&at.path))
                                .build(),
                        )
                        .region(region(start, end))
                        .build(),
                )
                .build();
            let level = match d.severity {
                Severity::Error => sarif::ResultLevel::Error,
                Severity::Warning => sarif::ResultLevel::Warning,
                Severity::Note => sarif::ResultLevel::Note,
            };
            let mut fingerprints = BTreeMap::new();
            fingerprints.insert("warpscope/v1".to_string(), fp);
            // The finding's other place: the CUDA source when the result sits
            // on the PTX instruction, the PTX instruction when it sits on the
            // source (`--locations source`).
            let at_source = cuda.is_some() && opts.locations == super::Locations::Source;
            let related: Vec<sarif::Location> = match cuda {
                Some(loc) if !at_source => {
                    let mut region = sarif::Region::builder()
                        .start_line(loc.line.max(1) as i64)
                        .build();
                    if loc.column > 0 {
                        region.start_column = Some(loc.column as i64);
                    }
                    vec![related_location(&loc.file, region, "CUDA source (`.loc`)")]
                }
                Some(_) => {
                    let (ps, pe) = super::range_of(r.file, &d);
                    vec![related_location(
                        r.file.name(),
                        region(ps, pe),
                        "PTX instruction",
                    )]
                }
                None => Vec::new(),
            };
            let mut result = sarif::Result::builder()
                .rule_id(d.code)
                .message(
                    sarif::Message::builder()
                        .text(long_message(&d, cuda))
                        .build(),
                )
                .level(level)
                .locations(vec![location])
                .partial_fingerprints(fingerprints)
                .related_locations(related)
                .build();
            if let Some(&i) = index.get(d.code) {
                result.rule_index = Some(i as i64);
            }
            each(result)?;
        }
    }
    Ok(())
}

/// The log without results (the emitter writes them into its `results`).
pub(super) fn empty() -> String {
    finish(Vec::new())
}

/// The log: one run with every rule and these results.
fn finish(results: Vec<sarif::Result>) -> String {
    let all: Vec<_> = rules().collect();
    let descriptors: Vec<sarif::ReportingDescriptor> = all
        .iter()
        .map(|r| {
            sarif::ReportingDescriptor::builder()
                .id(r.code)
                .name(r.name)
                .short_description(
                    sarif::MultiformatMessageString::builder()
                        .text(r.summary)
                        .build(),
                )
                .full_description(
                    sarif::MultiformatMessageString::builder()
                        .text(r.summary)
                        .build(),
                )
                .help(
                    sarif::MultiformatMessageString::builder()
                        .text(r.explanation)
                        .markdown(r.explanation)
                        .build(),
                )
                .default_configuration(
                    sarif::ReportingConfiguration::builder()
                        .level(level_str(r.default_level))
                        .build(),
                )
                .build()
        })
        .collect();
    let driver = sarif::ToolComponent::builder()
        .name("warpscope")
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .rules(descriptors)
        .build();
    let run = sarif::Run::builder().tool(driver).results(results).build();
    let log = sarif::Sarif::builder()
        .schema(sarif::SCHEMA_URL)
        .version(sarif::Version::V2_1_0.to_string())
        .runs(vec![run])
        .build();
    let mut s =
        serde_json::to_string_pretty(&log).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
