"""The game's :class:`~deploy.clients.Player` in a test's own process, through Channels'
communicator rather than a real server."""

from channels.testing import WebsocketCommunicator

from deploy.clients import Closed


class CommunicatorConnection:
    """A connection to the application in this process, through Channels' communicator."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator

    async def send(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout: float) -> str:
        output = await self.communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            raise Closed(output.get("code", 1000))
        return str(output["text"])

    async def close(self) -> None:
        await self.communicator.disconnect()
