#!/bin/sh
# The router's plans for a recorded device, checked against the plans recorded for it: every
# layer of the six suites at batch 1 and 32, fp16/bf16 NHWC and NCHW and fp32 NCHW, planned offline from
# the device's profile (vkconv-bench plans --caps) and compared with GOLDEN (bench/plans_diff.py).
# A deliberate router change updates GOLDEN in the same commit (--update), so that the diff shows
# which layers moved; bench/profiles/README.md says how the golden files were verified on the
# device.
#   bench/plans_check.sh build/bench/vkconv-bench bench/profiles/nvidia_h200.json \
#       bench/profiles/nvidia_h200.plans.csv [--update]
set -eu
bench=$1 profile=$2 golden=$3 update=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suites="--suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix"
# shellcheck disable=SC2086
"$bench" plans --caps "$profile" $suites --batch 1 --batch 32 --dtype fp16 --dtype bf16 --layout nhwc --layout nchw --csv "$tmp/a.csv" > "$tmp/a.txt"
# shellcheck disable=SC2086
"$bench" plans --caps "$profile" $suites --batch 1 --batch 32 --dtype fp32 --layout nchw --csv "$tmp/b.csv" > "$tmp/b.txt"
{ cat "$tmp/a.csv"; tail -n +2 "$tmp/b.csv"; } > "$tmp/plans.csv"
if [ "$update" = "--update" ]; then
    cp "$tmp/plans.csv" "$golden"
    echo "wrote $golden ($(($(wc -l < "$golden") - 1)) plans)"
    exit 0
fi
python3 "$here/plans_diff.py" "$golden" "$tmp/plans.csv"
