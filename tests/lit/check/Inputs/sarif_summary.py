"""Prints a SARIF log's version, rule table and results one per line, for FileCheck."""
import json
import os
import sys

log = json.load(open(sys.argv[1]))
print("version", log["version"])
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
for rule in rules:
    print("rule", rule["id"])
for result in run["results"]:
    where = result["locations"][0]["physicalLocation"]
    region = where["region"]
    name = os.path.basename(where["artifactLocation"]["uri"])
    # Clang's own errors have no rule in the table, as clang-tidy's clang-diagnostic-error.
    if "ruleIndex" not in result:
        index = "no-index"
    else:
        index = "index-ok" if rules[result["ruleIndex"]]["id"] == result["ruleId"] else "index-wrong"
    print("result", result["ruleId"], result["level"],
          f"{name}:{region['startLine']}:{region['startColumn']}", index)
