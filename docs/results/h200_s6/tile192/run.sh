# The tile192/ call (at 340a36c, .carry/old = b2da13b), run on the lent H200 as: timeout 230 bash run.sh, from the repository root with .gl and .carry.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
ls /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json >/dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
C=$PWD/.carry; export VK_LAYER_PATH=$C/layer PYTHONUNBUFFERED=1
S="--suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head"
rb() { local d=$C; [ $1 = new ] || d=$C/$1; shift; LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vc-$RANDOM $d/bin/vkconv-bench --suites-dir bench/suites "$@" 2>&1 | sed -n '/== Summary/,$p' | head -9; }
nvidia-smi --query-gpu=timestamp,clocks.sm --format=csv -lms 250 > $OUT/smi.csv 2>/dev/null & 
echo "== new b32"; rb new $S --batch 32 --dtype fp16 --layout nhwc --check --json $OUT/new_fp16_b32.json
for v in old new; do echo "== $v b1"; rb $v --batch 1 --dtype fp16 --layout nhwc --check --json $OUT/${v}_fp16_b1.json; done
echo "== cudnn"; python3 bench/torch_baseline.py --config fp16_nhwc --batch 1 --batch 32 --json $OUT/cudnn_fp16.json >/dev/null 2>$OUT/cudnn.err; echo "exit $?"
kill %1; cd $OUT && tar czf r.tgz *.json *.csv && rm -f *.json *.csv
