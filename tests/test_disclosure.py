"""The rule of who may read what (``judge.game.disclosure``), reader by reader, on games and
members as the store holds them (unsaved rows: the rule reads no database)."""

from __future__ import annotations

from judge.game import disclosure
from judge.game.disclosure import PUBLIC
from judge.store.games import ACTIVE, FINISHED, MASTER, OBSERVER, PLAYER, Game, Player


def _game(*, gunboat: bool = False, status: str = ACTIVE) -> tuple[Game, Player, Player, Player, Player]:
    game = Game(name="g", gunboat=gunboat, status=status)
    master = Player(game=game, email="gm@x.org", role=MASTER, status="active")
    france = Player(game=game, email="f@x.org", role=PLAYER, power="France", status="active")
    italy = Player(game=game, email="i@x.org", role=PLAYER, power="Italy", status="active")
    observer = Player(game=game, email="o@x.org", role=OBSERVER, status="active")
    return game, master, france, italy, observer


def test_orders_before_processing_are_their_power_s_and_the_master_s() -> None:
    game, master, france, italy, observer = _game()
    assert disclosure.sees_orders(game, france, "France") and disclosure.sees_orders(game, master, "France")
    for reader in (italy, observer, None, PUBLIC):
        assert not disclosure.sees_orders(game, reader, "France"), reader
    assert disclosure.sees_every_order(game, master) and not disclosure.sees_every_order(game, france)
    other, other_master, *_ = _game()
    assert not disclosure.sees_every_order(game, other_master), "a master of another game is no master here"
    master.status = "resigned"
    assert not disclosure.sees_every_order(game, master), "a master who left"


def test_gunboat_identities_are_the_master_s_until_the_game_is_over() -> None:
    game, master, france, _, observer = _game(gunboat=True)
    assert disclosure.sees_identities(game, master) and disclosure.address_for(game, "i@x.org", master) == "i@x.org"
    for reader in (france, observer, None, PUBLIC):
        assert not disclosure.sees_identities(game, reader)
        assert disclosure.address_for(game, "i@x.org", reader) == disclosure.ANONYMOUS
    assert disclosure.press_author(game, "France", "f@x.org", grey=False) is None
    assert disclosure.press_author(game, "Master", "gm@x.org", grey=False) == "gm@x.org"
    game.status = FINISHED
    assert disclosure.sees_identities(game, None) and disclosure.sees_addresses(game, france)
    assert disclosure.press_author(game, "France", "f@x.org", grey=False) == "f@x.org"
    assert not disclosure.sees_addresses(game, PUBLIC), "the web shows no address, ever"


def test_grey_press_authors_and_copies() -> None:
    game, master, france, italy, observer = _game()
    assert disclosure.press_author(game, "France", "f@x.org", grey=True) is None
    assert disclosure.sees_press_truth(game, master) and not disclosure.sees_press_truth(game, france)
    assert not disclosure.may_share(game, master, france), "the master's view goes to masters only"
    assert disclosure.may_share(game, france, france) and disclosure.may_share(game, france, master)
    assert not disclosure.may_share(game, france, italy) and not disclosure.may_share(game, france, observer)
    assert disclosure.may_share(game, observer, france) and disclosure.may_share(game, None, italy)


def test_public_text_hides_every_address() -> None:
    text = "write to me@localhost or to you.there@mail.example.org; not 'a @ b'"
    assert disclosure.public_text(text) == "write to (address hidden) or to (address hidden); not 'a @ b'"
