"""The generated Python SDK as pip installed it from its wheel: run by
tests/e2e/plugin/python-wheel.test.ts with pytest inside the virtualenv that
docs/languages.md's commands make, so a broken wheel (a missing module or
data file, wrong argument types, a lost enum) fails before any program runs.
"""
import importlib.metadata
import importlib.resources
import inspect
import json
import typing
from pathlib import Path

import pulumi
import pulumi_certreseller as certreseller
from pulumi_certreseller import order as order_module


def test_imported_from_the_installed_wheel():
    # site-packages of the virtualenv, not a source folder on sys.path.
    assert "site-packages" in Path(certreseller.__file__).parts
    assert importlib.metadata.version("pulumi_certreseller") == json.loads(
        importlib.resources.files("pulumi_certreseller").joinpath("pulumi-plugin.json").read_text()
    )["version"]


def test_the_plugin_file_the_engine_reads_is_in_the_package():
    plugin = json.loads(importlib.resources.files("pulumi_certreseller").joinpath("pulumi-plugin.json").read_text())
    assert plugin["resource"] is True
    assert plugin["name"] == "certreseller"
    assert importlib.resources.files("pulumi_certreseller").joinpath("py.typed").is_file()


def test_order_args_argument_types():
    signature = inspect.signature(certreseller.OrderArgs.__init__)
    required = [name for name, p in signature.parameters.items() if p.default is inspect.Parameter.empty and name != "__self__"]
    assert sorted(required) == ["domain", "product_code"]
    assert signature.parameters["verification_method"].default is None

    # As written in the module (pulumi.Input holds forward references that typing cannot resolve).
    hints = certreseller.OrderArgs.__init__.__annotations__
    assert hints["domain"] == pulumi.Input[str]
    assert hints["product_code"] == pulumi.Input[str]
    assert hints["months"] == pulumi.Input[typing.Optional[int]]
    assert hints["san_domains"] == pulumi.Input[typing.Optional[typing.Sequence[pulumi.Input[str]]]]
    assert hints["verification_method"] == pulumi.Input[typing.Optional["VerificationMethod"]]
    # ... and that name is the enum.
    assert order_module.VerificationMethod is certreseller.VerificationMethod


def test_order_args_keep_what_they_are_given():
    args = certreseller.OrderArgs(domain="example.com", product_code="sandbox-dv-single",
                                  verification_method=certreseller.VerificationMethod.DNS, san_domains=["www.example.com"])
    assert args.domain == "example.com"
    assert args.verification_method == "dns"
    assert args.san_domains == ["www.example.com"]


def test_verification_method_enum():
    method = certreseller.VerificationMethod
    assert issubclass(method, str)
    assert method.DNS == "dns"
    assert method("email-admin") is method.EMAIL_ADMIN
    assert {m.value for m in method} >= {"dns", "cname", "file", "email-admin", "dcv"}
