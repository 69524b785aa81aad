import pytest

from halluforge.errors import RegistryError
from halluforge.registry import Registry


def test_lazy_entry_is_imported_on_first_get() -> None:
    registry: Registry[object] = Registry("things", {"json_dumps": "json:dumps"})
    import json

    assert registry.get("json_dumps") is json.dumps
    assert "json_dumps" in registry


def test_unknown_name_suggests() -> None:
    registry: Registry[object] = Registry("things", {"answer_swap": "json:dumps"})
    with pytest.raises(RegistryError, match="did you mean 'answer_swap'"):
        registry.get("answer_swapp")


def test_register_object_and_names_sorted() -> None:
    registry: Registry[int] = Registry("numbers")
    registry.register("b", 2)
    registry.register("a", 1)
    assert registry.names() == ["a", "b"]
    assert registry.get("b") == 2


def test_every_builtin_registry_entry_imports() -> None:
    from halluforge.backends import BACKENDS
    from halluforge.data import LOADERS
    from halluforge.family import FAMILIES
    from halluforge.metrics import SCORERS
    from halluforge.metrics.layer import METRICS
    from halluforge.settings import SETTINGS

    for registry in (BACKENDS, LOADERS, FAMILIES, SCORERS, METRICS, SETTINGS):
        for name in registry.names():
            assert registry.get(name) is not None, (registry.kind, name)
