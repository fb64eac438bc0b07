#!/usr/bin/env python3
"""Write the model zoo: one CSV of 2-D convolution shapes per torchvision network.

Every torchvision classification model, and the backbones, necks (FPN) and heads of the detection
and segmentation models, is built without weights, a forward hook is put on every nn.Conv2d, and
one forward pass at batch 1 runs at the model's usual input size (the crop size of its default
weights; for detection the size its own transform resizes a square image to).  Where torch has
the "meta" device (torch >= 2.0) the pass runs there, which allocates and computes nothing; a
model that fails on meta runs on the GPU, where there is one, or the CPU (under torch.no_grad()).

Each bench/zoo/<model>.csv has the columns of bench/suites/*.csv plus `count`: rows with an
identical shape inside one model are written once, with how many convolutions share it, so a
model's time is the sum of count x layer time.  `layer` names the first module with that shape
(with @HxW where a module runs at several sizes, as a detection head shared across FPN levels).
A convolution that cannot be written as a symmetric zero-padded one is left out and named in a
comment line.  MODELS.txt lists what was generated, with the torch and torchvision versions.

Transposed and 3-D convolutions are not recorded.  The R-CNN box, mask and keypoint heads run on
one region of interest (n = 1 at the RoI pool's output size); in a real image they run once per
proposal.

  python3 bench/zoo/make_zoo.py                       # every model into bench/zoo
  python3 bench/zoo/make_zoo.py --list                # the model names, nothing written
  python3 bench/zoo/make_zoo.py --models resnet18,ssd300_vgg16 --out /tmp/zoo
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections import OrderedDict
from pathlib import Path

COLUMNS = ["suite", "layer", "n", "c", "h", "w", "k", "r", "s", "pad_h", "pad_w",
           "stride_h", "stride_w", "dil_h", "dil_w", "groups", "count"]

# Used where torchvision has no list_models() (it came with 0.14) or list_models fails.
FALLBACK_CLASSIFICATION = [
    "alexnet", "convnext_tiny", "convnext_small", "convnext_base", "convnext_large",
    "densenet121", "densenet161", "densenet169", "densenet201",
    "efficientnet_b0", "efficientnet_b1", "efficientnet_b2", "efficientnet_b3", "efficientnet_b4",
    "efficientnet_b5", "efficientnet_b6", "efficientnet_b7",
    "efficientnet_v2_s", "efficientnet_v2_m", "efficientnet_v2_l",
    "googlenet", "inception_v3", "maxvit_t",
    "mnasnet0_5", "mnasnet0_75", "mnasnet1_0", "mnasnet1_3",
    "mobilenet_v2", "mobilenet_v3_large", "mobilenet_v3_small",
    "regnet_x_400mf", "regnet_x_800mf", "regnet_x_1_6gf", "regnet_x_3_2gf", "regnet_x_8gf",
    "regnet_x_16gf", "regnet_x_32gf",
    "regnet_y_400mf", "regnet_y_800mf", "regnet_y_1_6gf", "regnet_y_3_2gf", "regnet_y_8gf",
    "regnet_y_16gf", "regnet_y_32gf", "regnet_y_128gf",
    "resnet18", "resnet34", "resnet50", "resnet101", "resnet152",
    "resnext50_32x4d", "resnext101_32x8d", "resnext101_64x4d",
    "shufflenet_v2_x0_5", "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0",
    "squeezenet1_0", "squeezenet1_1",
    "swin_t", "swin_s", "swin_b", "swin_v2_t", "swin_v2_s", "swin_v2_b",
    "vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn",
    "vit_b_16", "vit_b_32", "vit_l_16", "vit_l_32", "vit_h_14",
    "wide_resnet50_2", "wide_resnet101_2",
]
FALLBACK_DETECTION = [
    "fasterrcnn_resnet50_fpn", "fasterrcnn_resnet50_fpn_v2", "fasterrcnn_mobilenet_v3_large_fpn",
    "fasterrcnn_mobilenet_v3_large_320_fpn", "fcos_resnet50_fpn", "keypointrcnn_resnet50_fpn",
    "maskrcnn_resnet50_fpn", "maskrcnn_resnet50_fpn_v2", "retinanet_resnet50_fpn",
    "retinanet_resnet50_fpn_v2", "ssd300_vgg16", "ssdlite320_mobilenet_v3_large",
]
FALLBACK_SEGMENTATION = [
    "deeplabv3_mobilenet_v3_large", "deeplabv3_resnet50", "deeplabv3_resnet101",
    "fcn_resnet50", "fcn_resnet101", "lraspp_mobilenet_v3_large",
]

torch = None
torchvision = None


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- model lists

def list_group(module, fallback: list[str]) -> list[str]:
    lister = getattr(torchvision.models, "list_models", None)
    if lister is not None:
        try:
            names = sorted(lister(module=module))
            if names:
                return names
        except Exception as e:  # older list_models without module=, or a broken registry
            log(f"list_models(module={module.__name__}) failed ({e}); using the built-in list")
    return list(fallback)


def all_models() -> "OrderedDict[str, str]":
    """name -> group ("classification", "detection", "segmentation")."""
    out: OrderedDict[str, str] = OrderedDict()
    for name in list_group(torchvision.models, FALLBACK_CLASSIFICATION):
        out[name] = "classification"
    for name in list_group(torchvision.models.detection, FALLBACK_DETECTION):
        out[name] = "detection"
    for name in list_group(torchvision.models.segmentation, FALLBACK_SEGMENTATION):
        out[name] = "segmentation"
    return out


def builder_of(name: str, group: str):
    module = {"classification": torchvision.models, "detection": torchvision.models.detection,
              "segmentation": torchvision.models.segmentation}[group]
    fn = getattr(module, name, None)
    if fn is None and hasattr(torchvision.models, "get_model_builder"):
        with contextlib.suppress(Exception):
            fn = torchvision.models.get_model_builder(name)
    return fn


def default_weights(name: str):
    """The model's DEFAULT weights enum member (only read for its transforms), or None."""
    getter = getattr(torchvision.models, "get_model_weights", None)
    if getter is None:
        return None
    try:
        return getter(name).DEFAULT
    except Exception:
        return None


def usual_size(name: str, group: str) -> int:
    """The side of the square input the model's default weights are evaluated at: the crop size
    for classification, the resize size for segmentation (520)."""
    w = default_weights(name)
    kw = getattr(getattr(w, "transforms", None), "keywords", {}) or {}
    if group == "segmentation":
        size = kw.get("resize_size", 520)
    else:
        size = kw.get("crop_size", 224)
    if isinstance(size, (list, tuple)):
        size = size[0]
    return int(size) if size else (520 if group == "segmentation" else 224)


# ---------------------------------------------------------------------------- building

def build(name: str, group: str, size: int):
    fn = builder_of(name, group)
    if fn is None:
        raise LookupError(f"torchvision {torchvision.__version__} has no model '{name}'")
    kwargs = {"weights": None}
    if group in ("detection", "segmentation"):
        kwargs["weights_backbone"] = None  # the default would download ImageNet weights
    if name.startswith("vit_"):
        kwargs["image_size"] = size  # ViT's position embedding fixes the input size
    if name in ("googlenet", "inception_v3"):
        kwargs["init_weights"] = False  # weights are never read; skip the slow initialisation
    try:
        return fn(**kwargs)
    except TypeError:
        kwargs.pop("init_weights", None)
        return fn(**kwargs)


def detection_input_size(model) -> int:
    """The side a square image has after the model's own transform: fixed_size (SSD), else
    min_size (when <= max_size) rounded up to size_divisible."""
    t = model.transform
    fixed = getattr(t, "fixed_size", None)
    if fixed:
        return int(fixed[0])
    side = float(t.min_size[-1])
    side = min(side, float(t.max_size))
    div = int(getattr(t, "size_divisible", 32))
    return int(-(-int(side) // div) * div)


def run_detection(model, dev) -> int:
    """Backbone (with its FPN or extra layers), then the heads on what the backbone gave; the
    transform, anchor matching and NMS are skipped (they hold no convolution)."""
    size = detection_input_size(model)
    x = torch.zeros(1, 3, size, size, device=dev)
    feats = model.backbone(x)
    if isinstance(feats, torch.Tensor):
        feats = OrderedDict([("0", feats)])
    levels = list(feats.values())
    if hasattr(model, "rpn"):  # Faster / Mask / Keypoint R-CNN
        model.rpn.head(levels)
        rh = model.roi_heads
        ch = model.backbone.out_channels

        def roi(pool):
            out = pool.output_size
            out = (out, out) if isinstance(out, int) else tuple(out)
            return torch.zeros(1, ch, out[0], out[1], device=dev)

        rh.box_head(roi(rh.box_roi_pool))
        if getattr(rh, "mask_head", None) is not None:
            rh.mask_head(roi(rh.mask_roi_pool))
        if getattr(rh, "keypoint_head", None) is not None:
            rh.keypoint_head(roi(rh.keypoint_roi_pool))
    else:  # RetinaNet, FCOS, SSD, SSDlite: one head over every level
        model.head(levels)
    return size


# ---------------------------------------------------------------------------- recording

class Recorder:
    def __init__(self):
        self.calls = []    # (module name, shape tuple)
        self.skipped = []  # (module name, reason)

    def hook(self, name):
        def fn(module, inputs, output):
            x = inputs[0]
            if x.dim() != 4:
                self.skipped.append((name, f"input of rank {x.dim()}"))
                return
            c, h, w = int(x.shape[1]), int(x.shape[2]), int(x.shape[3])
            r, s = module.kernel_size
            dil_h, dil_w = module.dilation
            pad = module.padding
            if isinstance(pad, str):
                if pad == "valid":
                    pad = (0, 0)
                else:  # "same": stride is 1, total padding dil*(k-1) split evenly when it is even
                    tot_h, tot_w = dil_h * (r - 1), dil_w * (s - 1)
                    if tot_h % 2 or tot_w % 2:
                        self.skipped.append((name, f"padding='same' with an even kernel {r}x{s} pads "
                                                   "one side more than the other"))
                        return
                    pad = (tot_h // 2, tot_w // 2)
            if getattr(module, "padding_mode", "zeros") != "zeros":
                self.skipped.append((name, f"padding_mode='{module.padding_mode}'"))
                return
            shape = (1, c, h, w, int(module.out_channels), int(r), int(s), int(pad[0]), int(pad[1]),
                     int(module.stride[0]), int(module.stride[1]), int(dil_h), int(dil_w),
                     int(module.groups))
            self.calls.append((name, shape))
        return fn


def attach(model, rec: Recorder):
    handles = []
    for name, m in model.named_modules():
        # Conv2d exactly: ConvTranspose2d is not a subclass, and Conv3d/Conv1d are other classes.
        if isinstance(m, torch.nn.Conv2d):
            handles.append(m.register_forward_hook(rec.hook(name)))
    return handles


def rows_of(model_name: str, rec: Recorder) -> list[list]:
    """One row per distinct shape, in first-seen order, with its count; layer names made unique
    (a module run at several sizes gets @HxW)."""
    first: OrderedDict[tuple, list] = OrderedDict()
    for name, shape in rec.calls:
        if shape in first:
            first[shape][1] += 1
        else:
            first[shape] = [name, 1]
    names_per_module: dict[str, int] = {}
    for name, _ in first.values():
        names_per_module[name] = names_per_module.get(name, 0) + 1
    rows, used = [], set()
    for shape, (name, count) in first.items():
        layer = name or "conv"
        if names_per_module[name] > 1:
            layer = f"{layer}@{shape[2]}x{shape[3]}"
        base, i = layer, 2
        while layer in used:
            layer, i = f"{base}#{i}", i + 1
        used.add(layer)
        rows.append([model_name, layer, *shape, count])
    return rows


def has_meta_context() -> bool:
    # torch.device as a context manager (default device) came with torch 2.0.
    return hasattr(torch.device("cpu"), "__enter__")


def devices_for(choice: str) -> list[str]:
    if choice != "auto":
        return [choice]
    return (["meta"] if has_meta_context() else []) + (["cuda"] if torch.cuda.is_available() else []) + ["cpu"]


def trace(name: str, group: str, devices: list[str]):
    """(input side, Recorder, device used): the first device the pass works on."""
    size = usual_size(name, group)
    errors = []
    for dev in devices:
        rec = Recorder()
        model = None
        try:
            # Built under the default-device context where there is one, so that meta allocates
            # nothing; else built on the CPU and moved.
            ctx = torch.device(dev) if has_meta_context() else contextlib.nullcontext()
            with torch.no_grad(), ctx:
                model = build(name, group, size).eval()
                if not has_meta_context():
                    model = model.to(dev)
                attach(model, rec)
                if group == "detection":
                    size = run_detection(model, dev)
                else:
                    model(torch.zeros(1, 3, size, size, device=dev))
            return size, rec, dev
        except LookupError:
            raise
        except Exception as e:  # meta lacks an op, or the model does not take this input
            errors.append(f"{dev}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        finally:
            del model
            if dev == "cuda":
                torch.cuda.empty_cache()
    raise RuntimeError("; ".join(errors))


# ---------------------------------------------------------------------------- output

def write_csv(path: Path, rows: list[list], skipped: list) -> None:
    lines = [",".join(COLUMNS)]
    # Comment lines come after the header: the readers take the first line as the header.
    for name, why in skipped:
        lines.append(f"# skipped {name}: {why}")
    lines += [",".join(str(v) for v in r) for r in rows]
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent),
                    help="directory for <model>.csv and MODELS.txt (default: bench/zoo)")
    ap.add_argument("--models", default="", help="comma-separated model names (default: every one)")
    ap.add_argument("--list", action="store_true", help="print the model names and groups, write nothing")
    ap.add_argument("--device", default="auto", choices=["auto", "meta", "cuda", "cpu"],
                    help="where the pass runs (auto: meta where torch has it, then cuda, then cpu)")
    args = ap.parse_args(argv)

    global torch, torchvision
    import torch as _torch
    import torchvision as _tv
    import torchvision.models.detection  # noqa: F401  (older releases do not import these eagerly)
    import torchvision.models.segmentation  # noqa: F401
    torch, torchvision = _torch, _tv
    import warnings
    warnings.filterwarnings("ignore")

    log(f"torch {torch.__version__}, torchvision {torchvision.__version__}")
    known = all_models()
    if args.list:
        for name, group in known.items():
            print(f"{name}\t{group}")
        return 0

    wanted = [m.strip() for m in args.models.split(",") if m.strip()] or list(known)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary, failed = [], []
    for name in wanted:
        group = known.get(name)
        if group is None:
            # A name from a newer or older torchvision than this one: say so and go on.
            group = next((g for g, lst in (("classification", FALLBACK_CLASSIFICATION),
                                           ("detection", FALLBACK_DETECTION),
                                           ("segmentation", FALLBACK_SEGMENTATION)) if name in lst), None)
            if group is None or builder_of(name, group) is None:
                log(f"skip {name}: not a model of torchvision {torchvision.__version__}")
                failed.append((name, "unknown to this torchvision"))
                continue
        t0 = time.time()
        try:
            size, rec, dev = trace(name, group, devices_for(args.device))
        except Exception as e:
            log(f"skip {name}: {e}")
            failed.append((name, str(e)))
            continue
        rows = rows_of(name, rec)
        write_csv(out / f"{name}.csv", rows, rec.skipped)
        for layer, why in rec.skipped:
            log(f"{name}: left out {layer}: {why}")
        summary.append((name, group, size, len(rec.calls), len(rows), len(rec.skipped)))
        log(f"{name}: {group}, {size}x{size}, {len(rec.calls)} convs, {len(rows)} unique shapes "
            f"({dev}, {time.time() - t0:.1f} s)")

    if not args.models:  # a partial run leaves the full listing alone
        lines = [f"# bench/zoo/make_zoo.py: torch {torch.__version__}, torchvision {torchvision.__version__}",
                 "# input: the square side at batch 1; convs: Conv2d calls in one pass; left_out: see the CSV's comments",
                 "model,group,input,convs,unique_shapes,left_out"]
        lines += [f"{n},{g},{s},{c},{u},{k}" for n, g, s, c, u, k in summary]
        lines += [f"# not generated: {n}: {why}" for n, why in failed]
        (out / "MODELS.txt").write_text("\n".join(lines) + "\n")
    total = sum(u for *_, u, _ in summary)
    log(f"{len(summary)} models written to {out} ({total} rows), {len(failed)} not generated")
    return 0 if summary else 1


if __name__ == "__main__":
    sys.exit(main())
