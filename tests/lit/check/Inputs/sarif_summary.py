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
    index_ok = rules[result["ruleIndex"]]["id"] == result["ruleId"]
    print("result", result["ruleId"], result["level"],
          f"{name}:{region['startLine']}:{region['startColumn']}",
          "index-ok" if index_ok else "index-wrong")
