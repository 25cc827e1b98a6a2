from django.urls import path

from . import views

app_name = "rooms"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("quick/", views.quick_join, name="quick_join"),
    path("r/<room_code:code>/", views.room, name="room"),
    path("r/<room_code:code>/join/", views.join, name="join"),
    path("r/<room_code:code>/seat/", views.seat, name="seat"),
    path("r/<room_code:code>/leave/", views.leave, name="leave"),
    path("r/<room_code:code>/remove/", views.remove, name="remove"),
    path("r/<room_code:code>/bots/", views.bots, name="bots"),
    path("r/<room_code:code>/close/", views.close, name="close"),
    path("r/<room_code:code>/chat/", views.chat_say, name="chat_say"),
    path("r/<room_code:code>/chat/<int:line_id>/report/", views.chat_report, name="chat_report"),
    path("r/<room_code:code>/chat/switch/", views.chat_switch, name="chat_switch"),
    path("chat/match/<public_id:public_id>/", views.match_chat, name="match_chat"),
    # After a room's match (by the match's id: the table knows it, not the room).
    path("again/<public_id:public_id>/", views.again, name="again"),
    path("again/<public_id:public_id>/yes/", views.again_accept, name="again_accept"),
    path("again/<public_id:public_id>/no/", views.again_decline, name="again_decline"),
]
