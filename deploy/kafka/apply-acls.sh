#!/bin/sh
# Applies the ACLs listed in an ACL file (acls.txt: principal, resource, pattern, names, operations per line)
# with kafka-acls.sh, one call per line. Idempotent: adding an ACL that exists changes nothing.
#
#   apply-acls.sh ACL_FILE BOOTSTRAP COMMAND_CONFIG
#
# KAFKA_ACLS names the kafka-acls.sh to run (default: /opt/kafka/bin/kafka-acls.sh, as in the apache/kafka image).
# POSIX sh (the image's /bin/sh); exits non-zero, naming the line, on the first line it cannot apply.
set -eu
file=$1 bootstrap=$2 config=$3
acls=${KAFKA_ACLS:-/opt/kafka/bin/kafka-acls.sh}
n=0
applied=0
while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    line=${line%%#*}
    set -f                      # no globbing: a name may be '*'
    set -- $line
    set +f
    [ $# -eq 0 ] && continue
    if [ $# -ne 5 ]; then
        echo "apply-acls: $file:$n: expected 5 fields (principal resource pattern names operations), got $#" >&2
        exit 2
    fi
    principal=$1 resource=$2 pattern=$3 names=$4 operations=$5
    case $resource in
        topic|group|transactional-id) ;;
        *) echo "apply-acls: $file:$n: unknown resource '$resource' (topic, group, transactional-id)" >&2; exit 2 ;;
    esac
    case $pattern in
        literal|prefixed) ;;
        *) echo "apply-acls: $file:$n: unknown pattern '$pattern' (literal, prefixed)" >&2; exit 2 ;;
    esac
    set -f
    set -- --bootstrap-server "$bootstrap" --command-config "$config" --add --allow-principal "$principal" \
        --resource-pattern-type "$pattern"
    old_ifs=$IFS
    IFS=,
    for name in $names; do set -- "$@" "--$resource" "$name"; done
    for op in $operations; do set -- "$@" --operation "$op"; done
    IFS=$old_ifs
    set +f
    if ! "$acls" "$@" >/dev/null; then
        echo "apply-acls: $file:$n: kafka-acls.sh failed" >&2
        exit 1
    fi
    applied=$((applied + 1))
done < "$file"
echo "apply-acls: $applied ACL lines of $file applied"
