import gc

from halluforge.pipeline import GC_THRESHOLD, fewer_collections


def test_fewer_collections_raises_the_first_threshold_and_restores_all() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 11, 12)
        with fewer_collections():
            assert gc.get_threshold() == (GC_THRESHOLD, 11, 12)
        assert gc.get_threshold() == (700, 11, 12)
        try:
            with fewer_collections():
                raise RuntimeError("a stage failed")
        except RuntimeError:
            pass
        assert gc.get_threshold() == (700, 11, 12)
    finally:
        gc.set_threshold(*before)
